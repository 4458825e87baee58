//! Replaying a log by function name on the libz3 loaded in this process.
//!
//! [`plan`] resolves every call of a [`Log`] before anything runs: its number to a
//! [`Function`] of the writing release's [`Table`], the function to its address in the loaded
//! libz3 (`dlsym` on the whole process, so whichever libz3 `--z3-lib` chose), and its
//! arguments to the parameter kinds. A function the loaded Z3 lacks is an error naming the
//! line ([`PlanError`]), unless the call only asks ([`Function::is_query`]): then it is
//! skipped and the plan counts it. A call that registers callbacks (user propagators, clause
//! callbacks) is skipped too: the writer logs no callback, so there is nothing to call back.
//!
//! [`Replayer`] then makes the calls in order through `libffi` with the table's C types:
//! objects map from the log's addresses to the pointers this replay got, out-parameters are
//! written into buffers and bound by the `*`/`@` lines, reference counting is made as
//! logged. Every context the replay makes gets an error handler that records Z3's errors
//! ([`Z3Errors`]) instead of Z3's default, which ends the process: a program may have caught
//! them, so they are counted, not findings.

use crate::log::{Addr, Call, EntryKind, Log, OutBinding, Symbol, Value};
use crate::table::{Dir, Function, Prim, Table, Type};
use libffi::middle::{arg, Arg, Cif, CodePtr, Type as FfiType};
use std::collections::HashMap;
use std::ffi::{c_void, CStr, CString};
use std::sync::Mutex;

/// A log that cannot be replayed here: the line and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlanError {
    pub line: u32,
    pub message: String,
}

/// Looks a function up in the loaded libraries.
pub fn lookup(name: &str) -> Option<*mut c_void> {
    let name = CString::new(name).ok()?;
    // SAFETY: dlsym with a NUL-terminated name; RTLD_DEFAULT searches every loaded object.
    let f = unsafe { libc::dlsym(libc::RTLD_DEFAULT, name.as_ptr()) };
    (!f.is_null()).then_some(f)
}

/// The loaded libz3's full version (`Z3_get_full_version`), if a libz3 is loaded.
pub fn loaded_version() -> Option<String> {
    let f = lookup("Z3_get_full_version")?;
    // SAFETY: `Z3_string Z3_get_full_version(void)` returns a static string.
    let text = unsafe {
        let f: extern "C" fn() -> *const libc::c_char = std::mem::transmute(f);
        f()
    };
    // SAFETY: a static NUL-terminated string of Z3, checked for null.
    (!text.is_null()).then(|| {
        unsafe { CStr::from_ptr(text) }
            .to_string_lossy()
            .into_owned()
    })
}

/// What one call entry does in the replay.
pub enum Step {
    /// Call `function` at `code` through `cif`.
    Call {
        function: Function,
        code: *mut c_void,
        cif: Cif,
    },
    /// Skip the call: the loaded Z3 lacks this query, or the call registers callbacks.
    Skip { function: Function },
    /// A message line (`M`): nothing to call.
    Message,
}

/// A resolved log, ready to run.
pub struct Plan {
    /// One step per entry of the log.
    pub steps: Vec<Step>,
    /// Queries the loaded Z3 lacks, skipped: (function, calls).
    pub skipped_queries: Vec<(String, usize)>,
    /// Calls that register callbacks, skipped: (function, calls).
    pub skipped_callbacks: Vec<(String, usize)>,
}

fn ffi_type(ty: &Type) -> FfiType {
    match ty {
        Type::Object(_) | Type::Callback(_) => FfiType::pointer(),
        Type::Prim(p) => match p {
            Prim::Void => FfiType::void(),
            Prim::VoidPtr | Prim::String | Prim::StringPtr | Prim::Symbol | Prim::CharPtr => {
                FfiType::pointer()
            }
            Prim::Int | Prim::Lbool => FfiType::i32(),
            Prim::Uint | Prim::PrintMode | Prim::ErrorCode => FfiType::u32(),
            Prim::Int64 => FfiType::i64(),
            Prim::Uint64 => FfiType::u64(),
            Prim::Bool => FfiType::u8(),
            Prim::Double => FfiType::f64(),
            Prim::Float => FfiType::f32(),
            Prim::Char => FfiType::i8(),
        },
    }
}

fn param_ffi_type(dir: Dir, ty: &Type) -> FfiType {
    match dir {
        Dir::In => ffi_type(ty),
        Dir::Out
        | Dir::InArray { .. }
        | Dir::InoutArray { .. }
        | Dir::OutArray { .. }
        | Dir::OutManagedArray { .. }
        | Dir::FnPtr => FfiType::pointer(),
    }
}

/// Whether `value` is what the writer logs for a parameter of `dir` and `ty`.
fn fits(dir: Dir, ty: &Type, value: &Value) -> bool {
    let prim = match ty {
        Type::Prim(p) => Some(*p),
        Type::Object(_) | Type::Callback(_) => None,
    };
    match dir {
        Dir::In | Dir::Out => match (prim, value) {
            (None, Value::Object(_)) => true,
            (Some(Prim::VoidPtr), Value::Object(_)) => true,
            (Some(Prim::Int | Prim::Int64 | Prim::Bool | Prim::Lbool), Value::Int(_)) => true,
            (
                Some(Prim::Uint | Prim::Uint64 | Prim::PrintMode | Prim::ErrorCode),
                Value::Uint(_),
            ) => true,
            (Some(Prim::Double | Prim::Float), Value::Double(_) | Value::Float(_)) => true,
            (Some(Prim::String), Value::Str(_)) => true,
            (Some(Prim::Symbol), Value::Symbol(_)) => dir == Dir::In,
            _ => false,
        },
        Dir::InArray { .. }
        | Dir::InoutArray { .. }
        | Dir::OutArray { .. }
        | Dir::OutManagedArray { .. } => matches!(
            (prim, value),
            (None, Value::Objects(_))
                | (Some(Prim::Symbol), Value::Symbols(_))
                | (Some(Prim::Uint | Prim::Bool), Value::Uints(_))
                | (Some(Prim::Int), Value::Ints(_))
        ),
        Dir::FnPtr => false,
    }
}

fn type_name(ty: &Type) -> String {
    match ty {
        Type::Object(n) => format!("Z3 object ({n})"),
        Type::Callback(n) => format!("callback ({n})"),
        Type::Prim(p) => format!("{p:?}").to_lowercase(),
    }
}

/// The length of an array argument.
fn array_len(value: &Value) -> Option<usize> {
    match value {
        Value::Objects(v) => Some(v.len()),
        Value::Uints(v) => Some(v.len()),
        Value::Ints(v) => Some(v.len()),
        Value::Symbols(v) => Some(v.len()),
        _ => None,
    }
}

/// Checks one call's arguments against its function: as many as the function has logged
/// parameters, each of the kind the writer logs, and no array shorter than the length
/// argument the function will read it by.
fn check_args(function: &Function, call: &Call) -> Result<(), String> {
    let params: Vec<_> = function.logged_params().collect();
    if params.len() != call.args.len() {
        return Err(format!(
            "{} takes {} logged arguments, the log has {}",
            function.name,
            params.len(),
            call.args.len()
        ));
    }
    // The writer skips callbacks, so a parameter's position among the log's arguments is
    // its position among the logged parameters.
    let logged_pos = |param_pos: u32| params.iter().position(|(p, _)| *p == param_pos as usize);
    for (i, ((_, param), value)) in params.iter().zip(&call.args).enumerate() {
        if !fits(param.dir, &param.ty, value) {
            return Err(format!(
                "argument {i} of {} is a {}, the function takes a {}",
                function.name,
                value.kind_name(),
                type_name(&param.ty)
            ));
        }
        let size_pos = match param.dir {
            Dir::InArray { size } | Dir::InoutArray { size } => Some(size),
            Dir::OutArray { capacity, .. } => Some(capacity),
            Dir::In | Dir::Out | Dir::OutManagedArray { .. } | Dir::FnPtr => None,
        };
        if let Some(size_pos) = size_pos {
            let len = array_len(value).unwrap_or(0);
            let size = logged_pos(size_pos).and_then(|p| match (&call.args[p], params[p].1.dir) {
                (Value::Uint(n), Dir::In) => Some(*n),
                _ => None,
            });
            match size {
                Some(n) if n as usize <= len => {}
                Some(n) => {
                    return Err(format!(
                        "argument {i} of {} is an array of {len}, but its length argument says {n}",
                        function.name
                    ))
                }
                None => {
                    return Err(format!(
                        "the length of array argument {i} of {} is not an unsigned input",
                        function.name
                    ))
                }
            }
        }
    }
    Ok(())
}

/// Resolves every call of `log` with `table` against the loaded libz3.
pub fn plan(log: &Log, table: &Table) -> Result<Plan, PlanError> {
    let mut steps = Vec::with_capacity(log.entries.len());
    let mut skipped_queries: Vec<(String, usize)> = Vec::new();
    let mut skipped_callbacks: Vec<(String, usize)> = Vec::new();
    let mut resolved: HashMap<u32, Option<*mut c_void>> = HashMap::new();
    let count = |list: &mut Vec<(String, usize)>, name: &str| match list
        .iter_mut()
        .find(|(n, _)| n == name)
    {
        Some((_, n)) => *n += 1,
        None => list.push((name.to_string(), 1)),
    };
    for entry in &log.entries {
        let call = match &entry.kind {
            EntryKind::Call(call) => call,
            EntryKind::Message(_) => {
                steps.push(Step::Message);
                continue;
            }
        };
        let error = |message: String| PlanError {
            line: entry.line,
            message,
        };
        let function = table.function(call.number).ok_or_else(|| {
            error(format!(
                "call number {} is not a function of Z3 {} (its table has {})",
                call.number,
                table.version,
                table.functions.len()
            ))
        })?;
        check_args(function, call).map_err(error)?;
        if function.params.iter().any(|p| p.dir == Dir::FnPtr) {
            count(&mut skipped_callbacks, &function.name);
            steps.push(Step::Skip {
                function: function.clone(),
            });
            continue;
        }
        if let Some(p) = function.params.iter().find(|p| {
            matches!(
                p.ty,
                Type::Prim(Prim::StringPtr | Prim::CharPtr | Prim::Char)
            )
        }) {
            return Err(error(format!(
                "{} has a parameter of a type this replay does not pass ({})",
                function.name,
                type_name(&p.ty)
            )));
        }
        let code = *resolved
            .entry(call.number)
            .or_insert_with(|| lookup(&function.name));
        match code {
            Some(code) => {
                let cif = Cif::new(
                    function.params.iter().map(|p| param_ffi_type(p.dir, &p.ty)),
                    ffi_type(&function.result),
                );
                steps.push(Step::Call {
                    function: function.clone(),
                    code,
                    cif,
                });
            }
            None if function.is_query() => {
                count(&mut skipped_queries, &function.name);
                steps.push(Step::Skip {
                    function: function.clone(),
                });
            }
            None => {
                return Err(error(format!(
                    "{} is not in the loaded libz3 (Z3 {})",
                    function.name,
                    loaded_version().unwrap_or_else(|| "?".into())
                )))
            }
        }
    }
    Ok(Plan {
        steps,
        skipped_queries,
        skipped_callbacks,
    })
}

/// Z3 error code of an allocation failure (`Z3_MEMOUT_FAIL`).
const Z3_MEMOUT_FAIL: u32 = 7;
/// The most distinct error messages kept.
const MAX_MESSAGES: usize = 100;

/// The Z3 errors a replay met: how many, and each distinct message with its count.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Z3Errors {
    pub count: u64,
    pub messages: Vec<(String, u64)>,
    /// Whether one of them was Z3 running out of memory.
    pub memout: bool,
}

static ERRORS: Mutex<Z3Errors> = Mutex::new(Z3Errors {
    count: 0,
    messages: Vec::new(),
    memout: false,
});

/// The error handler every context of a replay gets: records the error; the call returns
/// as Z3 returns after an error (the program may have checked the error code and gone on).
extern "C" fn record_error(ctx: *mut c_void, code: u32) {
    let message = lookup("Z3_get_error_msg")
        .map(|f| {
            // SAFETY: `Z3_string Z3_get_error_msg(Z3_context, Z3_error_code)` with the
            // context Z3 hands its handler; the string is Z3's, copied at once.
            unsafe {
                let f: extern "C" fn(*mut c_void, u32) -> *const libc::c_char =
                    std::mem::transmute(f);
                let text = f(ctx, code);
                if text.is_null() {
                    String::new()
                } else {
                    CStr::from_ptr(text).to_string_lossy().into_owned()
                }
            }
        })
        .unwrap_or_default();
    let mut errors = ERRORS.lock().unwrap_or_else(|e| e.into_inner());
    errors.count += 1;
    errors.memout |= code == Z3_MEMOUT_FAIL;
    match errors.messages.iter().position(|(m, _)| *m == message) {
        Some(i) => errors.messages[i].1 += 1,
        None if errors.messages.len() < MAX_MESSAGES => errors.messages.push((message, 1)),
        None => {}
    }
}

/// The errors recorded so far in this process.
pub fn z3_errors() -> Z3Errors {
    ERRORS.lock().unwrap_or_else(|e| e.into_inner()).clone()
}

/// The argument storage of one call: values libffi passes by address, and the buffers that
/// pointer arguments point into (heap allocations, which stay put while the call runs).
#[derive(Default)]
struct Frame {
    /// One scalar per parameter, in parameter order.
    scalars: Vec<Scalar>,
    strings: Vec<CString>,
    pointer_arrays: Vec<Vec<*mut c_void>>,
    u32_arrays: Vec<Vec<u32>>,
    i32_arrays: Vec<Vec<i32>>,
    bool_arrays: Vec<Vec<u8>>,
    /// Out-parameters: one 8-byte cell each (large enough for every scalar Z3 writes out),
    /// by parameter position.
    out_cells: Vec<(usize, Box<u64>)>,
    /// Object arrays Z3 may write into, by parameter position (index into pointer_arrays).
    object_arrays: Vec<(usize, usize)>,
}

#[derive(Clone, Copy)]
enum Scalar {
    Ptr(*mut c_void),
    I32(i32),
    U32(u32),
    I64(i64),
    U64(u64),
    U8(u8),
    F64(f64),
    F32(f32),
}

impl Scalar {
    fn as_arg(&self) -> Arg {
        match self {
            Scalar::Ptr(p) => arg(p),
            Scalar::I32(v) => arg(v),
            Scalar::U32(v) => arg(v),
            Scalar::I64(v) => arg(v),
            Scalar::U64(v) => arg(v),
            Scalar::U8(v) => arg(v),
            Scalar::F64(v) => arg(v),
            Scalar::F32(v) => arg(v),
        }
    }
}

/// Runs the steps of a plan; one per process (the error record is the process's).
pub struct Replayer {
    /// The log's addresses to this replay's objects.
    objects: HashMap<u64, *mut c_void>,
    mk_int_symbol: Option<*mut c_void>,
    mk_string_symbol: Option<*mut c_void>,
    set_error_handler: Option<*mut c_void>,
    /// The last context made, for symbols of calls that name none.
    last_context: *mut c_void,
    /// A context creation returned null: Z3 could not allocate it (it reports no error
    /// then, having no context to report it in).
    context_failed: bool,
    /// Objects are this process's own pointers (an address is the pointer's value), not a
    /// log's ([`Direct`]).
    own_objects: bool,
}

impl Default for Replayer {
    fn default() -> Self {
        Self::new()
    }
}

impl Replayer {
    pub fn new() -> Replayer {
        Replayer {
            objects: HashMap::new(),
            mk_int_symbol: lookup("Z3_mk_int_symbol"),
            mk_string_symbol: lookup("Z3_mk_string_symbol"),
            set_error_handler: lookup("Z3_set_error_handler"),
            last_context: std::ptr::null_mut(),
            context_failed: false,
            own_objects: false,
        }
    }

    /// Whether Z3 ran out of memory: an error of that code, or a context it could not make.
    pub fn out_of_memory(&self) -> bool {
        self.context_failed || z3_errors().memout
    }

    fn object(&self, a: Addr) -> Result<*mut c_void, String> {
        if a.0 == 0 || self.own_objects {
            return Ok(a.0 as usize as *mut c_void);
        }
        self.objects.get(&a.0).copied().ok_or_else(|| {
            format!(
                "object {} was bound by a call this replay skipped",
                crate::log::addr_text(a)
            )
        })
    }

    fn symbol(&self, ctx: *mut c_void, s: &Symbol) -> Result<*mut c_void, String> {
        // SAFETY: `Z3_symbol Z3_mk_int_symbol(Z3_context, int)` and
        // `Z3_mk_string_symbol(Z3_context, Z3_string)`, looked up by name, called with a
        // context of this replay and a NUL-terminated string that outlives the call.
        unsafe {
            match s {
                Symbol::Null => Ok(std::ptr::null_mut()),
                Symbol::Int(n) => {
                    let f = self.mk_int_symbol.ok_or("no Z3_mk_int_symbol")?;
                    let f: extern "C" fn(*mut c_void, i32) -> *mut c_void = std::mem::transmute(f);
                    Ok(f(ctx, *n as i32))
                }
                Symbol::Str(text) => {
                    let f = self.mk_string_symbol.ok_or("no Z3_mk_string_symbol")?;
                    let f: extern "C" fn(*mut c_void, *const libc::c_char) -> *mut c_void =
                        std::mem::transmute(f);
                    let text = c_string(text);
                    Ok(f(ctx, text.as_ptr()))
                }
            }
        }
    }

    /// Builds the arguments of `call` for `function`.
    fn frame(&self, function: &Function, call: &Call) -> Result<Frame, String> {
        let mut frame = Frame::default();
        // The context symbols are made in: the call's first context argument.
        let ctx = function
            .logged_params()
            .zip(&call.args)
            .find_map(|((_, p), v)| match (&p.ty, v) {
                (Type::Object(n), Value::Object(a)) if &**n == "CONTEXT" => self.object(*a).ok(),
                _ => None,
            })
            .unwrap_or(self.last_context);
        let mut args = call.args.iter();
        for (pos, param) in function.params.iter().enumerate() {
            if param.dir == Dir::FnPtr {
                frame.scalars.push(Scalar::Ptr(std::ptr::null_mut()));
                continue;
            }
            let value = args.next().ok_or("too few arguments")?;
            let scalar = match (param.dir, value) {
                (Dir::In, Value::Object(a)) => match &param.ty {
                    Type::Prim(Prim::VoidPtr) => Scalar::Ptr(std::ptr::null_mut()),
                    _ => Scalar::Ptr(self.object(*a)?),
                },
                (Dir::In, Value::Int(i)) => match &param.ty {
                    Type::Prim(Prim::Int64) => Scalar::I64(*i),
                    Type::Prim(Prim::Bool) => Scalar::U8(u8::from(*i != 0)),
                    _ => Scalar::I32(*i as i32),
                },
                (Dir::In, Value::Uint(u)) => match &param.ty {
                    Type::Prim(Prim::Uint64) => Scalar::U64(*u),
                    _ => Scalar::U32(*u as u32),
                },
                (Dir::In, Value::Double(d)) => match &param.ty {
                    Type::Prim(Prim::Float) => Scalar::F32(*d as f32),
                    _ => Scalar::F64(*d),
                },
                (Dir::In, Value::Float(f)) => match &param.ty {
                    Type::Prim(Prim::Float) => Scalar::F32(*f),
                    _ => Scalar::F64(f64::from(*f)),
                },
                (Dir::In, Value::Str(s)) => {
                    frame.strings.push(c_string(s));
                    Scalar::Ptr(
                        frame
                            .strings
                            .last()
                            .map_or(std::ptr::null(), |s| s.as_ptr())
                            as *mut c_void,
                    )
                }
                (Dir::In, Value::Symbol(s)) => Scalar::Ptr(self.symbol(ctx, s)?),
                (Dir::Out, _) => {
                    let mut cell = Box::new(0u64);
                    let ptr = &mut *cell as *mut u64 as *mut c_void;
                    frame.out_cells.push((pos, cell));
                    Scalar::Ptr(ptr)
                }
                (_, Value::Objects(v)) => {
                    let objects = match param.dir {
                        Dir::OutArray { .. } | Dir::OutManagedArray { .. } => {
                            vec![std::ptr::null_mut(); v.len()]
                        }
                        _ => v
                            .iter()
                            .map(|a| self.object(*a))
                            .collect::<Result<_, _>>()?,
                    };
                    frame.pointer_arrays.push(objects);
                    frame
                        .object_arrays
                        .push((pos, frame.pointer_arrays.len() - 1));
                    let array = frame
                        .pointer_arrays
                        .last_mut()
                        .map_or(std::ptr::null_mut(), |a| a.as_mut_ptr());
                    Scalar::Ptr(array as *mut c_void)
                }
                (_, Value::Symbols(v)) => {
                    let symbols = v
                        .iter()
                        .map(|s| self.symbol(ctx, s))
                        .collect::<Result<_, _>>()?;
                    frame.pointer_arrays.push(symbols);
                    Scalar::Ptr(
                        frame
                            .pointer_arrays
                            .last_mut()
                            .map_or(std::ptr::null_mut(), |a| a.as_mut_ptr())
                            as *mut c_void,
                    )
                }
                (_, Value::Uints(v)) if param.ty == Type::Prim(Prim::Bool) => {
                    // Z3's writer logs a bool array as unsigned values; the function reads bools.
                    frame
                        .bool_arrays
                        .push(v.iter().map(|u| u8::from(*u != 0)).collect());
                    Scalar::Ptr(
                        frame
                            .bool_arrays
                            .last_mut()
                            .map_or(std::ptr::null_mut(), |a| a.as_mut_ptr())
                            as *mut c_void,
                    )
                }
                (_, Value::Uints(v)) => {
                    frame.u32_arrays.push(v.iter().map(|u| *u as u32).collect());
                    Scalar::Ptr(
                        frame
                            .u32_arrays
                            .last_mut()
                            .map_or(std::ptr::null_mut(), |a| a.as_mut_ptr())
                            as *mut c_void,
                    )
                }
                (_, Value::Ints(v)) => {
                    frame.i32_arrays.push(v.iter().map(|i| *i as i32).collect());
                    Scalar::Ptr(
                        frame
                            .i32_arrays
                            .last_mut()
                            .map_or(std::ptr::null_mut(), |a| a.as_mut_ptr())
                            as *mut c_void,
                    )
                }
                (dir, value) => {
                    return Err(format!(
                        "argument {pos} of {}: a {} for a {dir:?} parameter",
                        function.name,
                        value.kind_name()
                    ))
                }
            };
            frame.scalars.push(scalar);
        }
        Ok(frame)
    }

    /// Makes the call of entry `call` as `step` says; an error is a log this replay cannot
    /// make (an object from a skipped call), never a Z3 error.
    pub fn run(&mut self, step: &Step, call: &Call) -> Result<(), String> {
        let (function, code, cif) = match step {
            Step::Call {
                function,
                code,
                cif,
            } => (function, *code, cif),
            Step::Skip { .. } | Step::Message => return Ok(()),
        };
        let frame = self.frame(function, call)?;
        let args: Vec<Arg> = frame.scalars.iter().map(Scalar::as_arg).collect();
        // SAFETY: `code` is the libz3 function of this name, `cif` was built from the table
        // of its parameters and result, and every argument points into `frame`, which lives
        // until the call returns. What the function does with the values is Z3's business:
        // a crash is what a replay is run to find, and it runs in a process of its own.
        let result = match unsafe { invoke(function, code, cif, &args) } {
            Returned::Object(p) => p,
            Returned::Int(_)
            | Returned::Uint(_)
            | Returned::Double(_)
            | Returned::Text(_)
            | Returned::Nothing => std::ptr::null_mut(),
        };
        let makes_context = matches!(&*function.name, "Z3_mk_context" | "Z3_mk_context_rc");
        self.context_failed |= makes_context && result.is_null();
        if makes_context && !result.is_null() {
            self.last_context = result;
            if let Some(set) = self.set_error_handler {
                // SAFETY: `void Z3_set_error_handler(Z3_context, Z3_error_handler)` on the
                // context just made, with a handler that lives as long as the process.
                unsafe {
                    let set: extern "C" fn(*mut c_void, extern "C" fn(*mut c_void, u32)) =
                        std::mem::transmute(set);
                    set(result, record_error);
                }
            }
        }
        if let Some(addr) = call.result {
            // As Z3's replayer: a result line after a call without an object result binds
            // null.
            self.bind(addr, result);
        }
        for binding in &call.outs {
            let (addr, value) = match *binding {
                OutBinding::Object { addr, pos } => {
                    let param = logged_to_param(function, pos);
                    let cell = frame.out_cells.iter().find(|(p, _)| Some(*p) == param);
                    (
                        addr,
                        cell.map_or(std::ptr::null_mut(), |(_, c)| **c as usize as *mut c_void),
                    )
                }
                OutBinding::Element { addr, pos, idx } => {
                    let param = logged_to_param(function, pos);
                    let array = frame
                        .object_arrays
                        .iter()
                        .find(|(p, _)| Some(*p) == param)
                        .and_then(|(_, i)| frame.pointer_arrays[*i].get(idx as usize));
                    (addr, array.copied().unwrap_or(std::ptr::null_mut()))
                }
            };
            self.bind(addr, value);
        }
        Ok(())
    }

    fn bind(&mut self, addr: Addr, value: *mut c_void) {
        if addr.0 != 0 {
            self.objects.insert(addr.0, value);
        }
    }
}

/// What a function returned.
#[derive(Clone, Debug, PartialEq)]
pub enum Returned {
    /// An object (or null), and any other pointer but a string.
    Object(*mut c_void),
    /// int, int64, lbool, char.
    Int(i64),
    /// unsigned, uint64, enumerations, bool.
    Uint(u64),
    /// double, float.
    Double(f64),
    /// A `Z3_string`, copied.
    Text(String),
    Nothing,
}

/// Calls `code` through `cif` with `args`, reading the result as `function`'s.
///
/// # Safety
/// `code` is the libz3 function of `function`'s name, `cif` was built from its parameters
/// and result, and `args` point at values that live until the call returns.
unsafe fn invoke(function: &Function, code: *mut c_void, cif: &Cif, args: &[Arg]) -> Returned {
    let code = CodePtr(code);
    match &function.result {
        Type::Object(_) | Type::Callback(_) => {
            Returned::Object(cif.call::<*mut c_void>(code, args))
        }
        Type::Prim(p) => match p {
            Prim::Void => {
                cif.call::<()>(code, args);
                Returned::Nothing
            }
            Prim::String => {
                let text = cif.call::<*const libc::c_char>(code, args);
                // SAFETY: Z3 owns the string until its next call; copied at once.
                Returned::Text(if text.is_null() {
                    String::new()
                } else {
                    CStr::from_ptr(text).to_string_lossy().into_owned()
                })
            }
            Prim::VoidPtr | Prim::StringPtr | Prim::Symbol | Prim::CharPtr => {
                Returned::Object(cif.call::<*mut c_void>(code, args))
            }
            Prim::Int | Prim::Lbool => Returned::Int(i64::from(cif.call::<i32>(code, args))),
            Prim::Uint | Prim::PrintMode | Prim::ErrorCode => {
                Returned::Uint(u64::from(cif.call::<u32>(code, args)))
            }
            Prim::Int64 => Returned::Int(cif.call::<i64>(code, args)),
            Prim::Uint64 => Returned::Uint(cif.call::<u64>(code, args)),
            Prim::Bool => Returned::Uint(u64::from(cif.call::<u8>(code, args))),
            Prim::Double => Returned::Double(cif.call::<f64>(code, args)),
            Prim::Float => Returned::Double(f64::from(cif.call::<f32>(code, args))),
            Prim::Char => Returned::Int(i64::from(cif.call::<i8>(code, args))),
        },
    }
}

/// One function of the loaded libz3 called by name outside a log, with this process's own
/// objects: the executor's calls that are their description's one Z3 function
/// (`untrace::executor::plain`) run through it.
pub struct Direct {
    function: Function,
    code: *mut c_void,
    cif: Cif,
    /// Makes the symbols and builds the arguments, with objects as pointers.
    replayer: Replayer,
}

impl Direct {
    /// `function` in the loaded libz3, or why it cannot be called so.
    pub fn resolve(function: &Function) -> Result<Direct, String> {
        if let Some(p) = function.params.iter().find(|p| {
            p.dir == Dir::FnPtr
                || matches!(
                    p.ty,
                    Type::Prim(Prim::StringPtr | Prim::CharPtr | Prim::Char)
                )
        }) {
            return Err(format!(
                "{} has a parameter of a type a call by name does not pass ({})",
                function.name,
                type_name(&p.ty)
            ));
        }
        let code = lookup(&function.name).ok_or_else(|| {
            format!(
                "{} is not in the loaded libz3 (Z3 {})",
                function.name,
                loaded_version().unwrap_or_else(|| "?".into())
            )
        })?;
        let cif = Cif::new(
            function.params.iter().map(|p| param_ffi_type(p.dir, &p.ty)),
            ffi_type(&function.result),
        );
        let mut replayer = Replayer::new();
        replayer.own_objects = true;
        Ok(Direct {
            function: function.clone(),
            code,
            cif,
            replayer,
        })
    }

    /// The function this calls.
    pub fn function(&self) -> &Function {
        &self.function
    }

    /// Calls the function with `args`, one per parameter as a log gives them, whose objects
    /// are pointers of this process (`Addr` the pointer's value). Z3's errors are the
    /// caller's to read (its context's error handler or error code); an error here is an
    /// argument that does not fit the function.
    pub fn call(&self, args: &[Value]) -> Result<Returned, String> {
        let call = Call {
            number: self.function.number,
            args: args.to_vec(),
            result: None,
            outs: Vec::new(),
        };
        check_args(&self.function, &call)?;
        let frame = self.replayer.frame(&self.function, &call)?;
        let args: Vec<Arg> = frame.scalars.iter().map(Scalar::as_arg).collect();
        // SAFETY: as in `Replayer::run`: the function of this name, its table's C types, and
        // arguments that point into `frame`, checked against the parameters above.
        Ok(unsafe { invoke(&self.function, self.code, &self.cif, &args) })
    }
}

/// The parameter position of the log's argument `pos` (callbacks are not logged).
fn logged_to_param(function: &Function, pos: u32) -> Option<usize> {
    function.logged_params().nth(pos as usize).map(|(p, _)| p)
}

/// The bytes of a log string up to its first NUL, as C reads them.
fn c_string(bytes: &[u8]) -> CString {
    let end = bytes.iter().position(|b| *b == 0).unwrap_or(bytes.len());
    CString::new(&bytes[..end]).unwrap_or_default()
}
