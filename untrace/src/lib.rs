//! untrace
