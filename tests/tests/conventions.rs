//! Conventions every binary keeps: `--version`, and exit codes documented in `--help` that
//! agree with the README's table "Exit codes at a glance".

use e2e::bin;
use std::collections::BTreeSet;
use std::process::Command;

const TOOLS: [&str; 5] = ["mbt", "untrace", "ddtrace", "ddsmt", "checkmodel"];

/// The exit codes the README's table gives `tool` (a cell other than `-`).
fn readme_codes(tool: &str) -> BTreeSet<u32> {
    let readme = include_str!("../../README.md");
    let table: Vec<&str> = readme
        .lines()
        .skip_while(|l| !l.starts_with("| tool | 0 |"))
        .take_while(|l| l.starts_with('|'))
        .collect();
    assert!(!table.is_empty(), "README has no exit code table");
    let cells = |line: &str| -> Vec<String> {
        line.trim_matches('|')
            .split(" | ")
            .map(|c| c.trim().to_string())
            .collect()
    };
    let header = cells(table[0]);
    let row = table
        .iter()
        .find(|l| l.starts_with(&format!("| `{tool}`")))
        .unwrap_or_else(|| panic!("README's exit code table has no row for {tool}"));
    let mut codes = BTreeSet::new();
    for (column, cell) in header.iter().zip(cells(row)).skip(1) {
        if cell == "-" {
            continue;
        }
        let numbers: Vec<u32> = column
            .split(['-', '/'])
            .map(|n| n.parse().unwrap())
            .collect();
        match (column.contains('-'), numbers.as_slice()) {
            (true, [from, to]) => codes.extend(*from..=*to),
            _ => codes.extend(numbers),
        }
    }
    codes
}

/// The exit code section of `help`: from its heading to the next blank line.
fn exit_section(help: &str) -> String {
    let lines: Vec<&str> = help.lines().collect();
    let start = lines
        .iter()
        .position(|l| l.to_lowercase().starts_with("exit codes"))
        .expect("--help has an exit code section");
    lines[start..]
        .iter()
        .skip(1)
        .take_while(|l| !l.trim().is_empty())
        .copied()
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn every_binary_documents_its_exit_codes_as_the_readme_does() {
    for tool in TOOLS {
        let out = Command::new(bin(tool)).arg("--help").output().unwrap();
        assert_eq!(out.status.code(), Some(0), "{tool} --help");
        let help = String::from_utf8_lossy(&out.stdout);
        let section = exit_section(&help);
        // Codes that start a line of the help's list.
        let listed: BTreeSet<u32> = section
            .lines()
            .filter_map(|l| l.split_whitespace().next()?.parse().ok())
            .collect();
        let words: BTreeSet<u32> = section
            .split(|c: char| !c.is_ascii_digit())
            .filter_map(|w| w.parse().ok())
            .collect();
        let readme = readme_codes(tool);
        assert!(
            listed.contains(&0) && listed.contains(&2),
            "{tool}:\n{section}"
        );
        for code in &listed {
            assert!(
                readme.contains(code),
                "{tool}: exit {code} is not in README's table"
            );
        }
        for code in &readme {
            assert!(
                words.contains(code),
                "{tool}: exit {code} of README is not in --help:\n{section}"
            );
        }
        let version = Command::new(bin(tool)).arg("--version").output().unwrap();
        let version = String::from_utf8_lossy(&version.stdout);
        assert!(
            version.starts_with(&format!("{tool} ")),
            "{tool}: {version}"
        );
    }
}
