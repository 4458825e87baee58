//! The `DT_NEEDED` entries of an ELF64 little-endian executable, read from its program
//! headers and dynamic section: enough to learn which soname of libz3 a binary links against.

use std::fs::File;
use std::os::unix::fs::FileExt;
use std::path::Path;

const PT_LOAD: u32 = 1;
const PT_DYNAMIC: u32 = 2;
const DT_NULL: u64 = 0;
const DT_NEEDED: u64 = 1;
const DT_STRTAB: u64 = 5;
/// A dynamic section is a few dozen entries; the bound keeps a corrupt file from looping long.
const MAX_DYNAMIC_ENTRIES: u64 = 4096;
/// Longer names than this are not sonames.
const MAX_NAME: usize = 4096;

fn u16_at(bytes: &[u8], at: usize) -> u16 {
    u16::from_le_bytes([bytes[at], bytes[at + 1]])
}

fn u32_at(bytes: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap_or([0; 4]))
}

fn u64_at(bytes: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(bytes[at..at + 8].try_into().unwrap_or([0; 8]))
}

fn read_at(file: &File, offset: u64, len: usize) -> std::io::Result<Vec<u8>> {
    let mut buf = vec![0; len];
    file.read_exact_at(&mut buf, offset)?;
    Ok(buf)
}

/// A program header's type, file offset, virtual address and size in the file.
struct Segment {
    kind: u32,
    offset: u64,
    vaddr: u64,
    filesz: u64,
}

/// The libraries `path` names in its dynamic section (`DT_NEEDED`), in order; an error for a
/// file that is not a readable ELF64 little-endian file.
pub fn needed(path: &Path) -> std::io::Result<Vec<String>> {
    let invalid =
        |what: &str| std::io::Error::new(std::io::ErrorKind::InvalidData, what.to_string());
    let file = File::open(path)?;
    let ident = read_at(&file, 0, 64)?;
    if &ident[..4] != b"\x7fELF" || ident[4] != 2 || ident[5] != 1 {
        return Err(invalid("not an ELF64 little-endian file"));
    }
    let phoff = u64_at(&ident, 0x20);
    let phentsize = u16_at(&ident, 0x36) as usize;
    let phnum = u16_at(&ident, 0x38) as usize;
    if phentsize < 56 {
        return Err(invalid("program headers too small"));
    }
    let table = read_at(&file, phoff, phentsize * phnum)?;
    let segments: Vec<Segment> = (0..phnum)
        .map(|i| {
            let h = &table[i * phentsize..];
            Segment {
                kind: u32_at(h, 0),
                offset: u64_at(h, 8),
                vaddr: u64_at(h, 16),
                filesz: u64_at(h, 32),
            }
        })
        .collect();
    let Some(dynamic) = segments.iter().find(|s| s.kind == PT_DYNAMIC) else {
        // A static executable needs no library.
        return Ok(Vec::new());
    };
    let n_entries = (dynamic.filesz / 16).min(MAX_DYNAMIC_ENTRIES);
    let entries = read_at(&file, dynamic.offset, (n_entries * 16) as usize)?;
    let mut strtab_vaddr = None;
    let mut name_offsets = Vec::new();
    for i in 0..n_entries as usize {
        let (tag, value) = (u64_at(&entries, i * 16), u64_at(&entries, i * 16 + 8));
        match tag {
            DT_NULL => break,
            DT_NEEDED => name_offsets.push(value),
            DT_STRTAB => strtab_vaddr = Some(value),
            _ => {}
        }
    }
    let strtab_vaddr = strtab_vaddr.ok_or_else(|| invalid("no DT_STRTAB"))?;
    // DT_STRTAB is an address; the loadable segment that holds it maps it to a file offset.
    let strtab = segments
        .iter()
        .find(|s| s.kind == PT_LOAD && (s.vaddr..s.vaddr + s.filesz).contains(&strtab_vaddr))
        .map(|s| strtab_vaddr - s.vaddr + s.offset)
        .ok_or_else(|| invalid("DT_STRTAB outside the loadable segments"))?;
    let mut names = Vec::new();
    for name_offset in name_offsets {
        let mut name = Vec::new();
        let mut at = strtab + name_offset;
        while name.len() < MAX_NAME {
            let mut byte = [0];
            file.read_exact_at(&mut byte, at)?;
            if byte[0] == 0 {
                break;
            }
            name.push(byte[0]);
            at += 1;
        }
        names.push(String::from_utf8_lossy(&name).into_owned());
    }
    Ok(names)
}

/// The `Z3_*` functions the shared library at `path` defines in its dynamic symbol table
/// (what `nm -D --defined-only` lists), sorted: the API a loaded libz3 offers, which mbt's
/// API coverage measures itself against.
pub fn exported_z3_functions(path: &Path) -> std::io::Result<Vec<String>> {
    use object::{Object, ObjectSymbol, SymbolKind};
    let invalid = |e: object::Error| std::io::Error::new(std::io::ErrorKind::InvalidData, e);
    let bytes = std::fs::read(path)?;
    let file = object::File::parse(&*bytes).map_err(invalid)?;
    let mut names: Vec<String> = file
        .dynamic_symbols()
        .filter(|s| s.is_definition() && s.kind() == SymbolKind::Text)
        .filter_map(|s| s.name().ok().map(str::to_string))
        .filter(|name| name.starts_with("Z3_"))
        .collect();
    names.sort_unstable();
    names.dedup();
    Ok(names)
}

/// A function of an ELF file's symbol table: where it starts and how long it is (addresses
/// as the file's program headers place them; for a shared library, offsets from its base).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Function {
    pub start: u64,
    pub size: u64,
    /// As the file has it (a C++ name mangled).
    pub name: String,
}

/// The functions of the ELF file at `path`, sorted by start: its full symbol table, else
/// (a stripped file, such as Debian's libz3) its dynamic one, which names only the exported
/// API. A source build's and the z3-solver wheel's libz3 keep the full table.
pub fn functions(path: &Path) -> std::io::Result<Vec<Function>> {
    use object::{Object, ObjectSymbol, SymbolKind};
    let invalid = |e: object::Error| std::io::Error::new(std::io::ErrorKind::InvalidData, e);
    let bytes = std::fs::read(path)?;
    let file = object::File::parse(&*bytes).map_err(invalid)?;
    let of = |symbols: object::SymbolIterator<'_, '_>| -> Vec<Function> {
        symbols
            .filter(|s| s.is_definition() && s.kind() == SymbolKind::Text && s.size() > 0)
            .filter_map(|s| {
                Some(Function {
                    start: s.address(),
                    size: s.size(),
                    name: s.name().ok()?.to_string(),
                })
            })
            .collect()
    };
    let mut functions = of(file.symbols());
    if functions.is_empty() {
        functions = of(file.dynamic_symbols());
    }
    functions.sort_by_key(|f| f.start);
    Ok(functions)
}

/// The function of `functions` (sorted by start) that holds `address`, with the offset of
/// `address` into it.
pub fn function_holding(functions: &[Function], address: u64) -> Option<(&Function, u64)> {
    let after = functions.partition_point(|f| f.start <= address);
    let function = functions[..after].last()?;
    let offset = address - function.start;
    (offset < function.size).then_some((function, offset))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_test_binary_needs_libc() {
        let exe = std::env::current_exe().unwrap();
        let names = needed(&exe).unwrap();
        assert!(names.iter().any(|n| n.starts_with("libc.so")), "{names:?}");
    }

    #[test]
    fn a_text_file_is_no_elf_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("x.txt");
        std::fs::write(&path, "x".repeat(100)).unwrap();
        assert!(needed(&path).is_err());
    }

    #[test]
    fn the_system_libz3_exports_its_api() {
        let lib = Path::new("/usr/lib/x86_64-linux-gnu/libz3.so.4");
        if !lib.exists() {
            return;
        }
        let names = exported_z3_functions(lib).unwrap();
        assert!(names.len() > 600, "{}", names.len());
        assert!(names.iter().any(|n| n == "Z3_solver_check"));
        assert!(names.windows(2).all(|w| w[0] < w[1]));
    }

    #[test]
    fn an_address_is_named_by_the_function_that_holds_it() {
        let function = |start, size, name: &str| Function {
            start,
            size,
            name: name.into(),
        };
        let table = [function(0x100, 0x10, "a"), function(0x200, 0x40, "b")];
        assert_eq!(function_holding(&table, 0x100), Some((&table[0], 0)));
        assert_eq!(function_holding(&table, 0x23f), Some((&table[1], 0x3f)));
        assert_eq!(function_holding(&table, 0x110), None, "between functions");
        assert_eq!(function_holding(&table, 0x240), None, "past the last");
        assert_eq!(function_holding(&table, 0xff), None, "before the first");
    }

    #[test]
    fn this_test_binary_names_its_own_functions() {
        let exe = std::env::current_exe().unwrap();
        let table = functions(&exe).unwrap();
        assert!(table.windows(2).all(|w| w[0].start <= w[1].start));
        let main = table
            .iter()
            .find(|f| f.name == "main")
            .expect("a main symbol");
        assert_eq!(
            function_holding(&table, main.start + main.size / 2).map(|(f, _)| &f.name),
            Some(&main.name)
        );
    }

    #[test]
    fn a_file_that_is_not_elf_exports_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("x.so");
        std::fs::write(&path, b"not an elf file").unwrap();
        assert!(exported_z3_functions(&path).is_err());
    }
}
