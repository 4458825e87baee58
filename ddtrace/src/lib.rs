//! ddtrace
