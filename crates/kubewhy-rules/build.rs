//! Embeds every page under docs/causes/ into the binary: adding a page is adding a file.

use std::io::Write;

fn main() {
    // The manifest directory as cargo gives it when the script runs, not as it was when the script
    // was compiled (`env!`): cargo reuses a compiled build script for the same package in another
    // checkout sharing the target directory, and a baked-in path then names a checkout that may
    // be gone (CI's fresh clone was; every page vanished from the binary).
    let manifest = std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let dir = std::path::Path::new(&manifest).join("../../docs/causes");
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut pages: Vec<(String, String)> = Vec::new();
    let rd = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("the cause pages: {}: {e}", dir.display()));
    for e in rd.flatten() {
        let p = e.path();
        if p.extension().is_some_and(|x| x == "md") {
            println!("cargo:rerun-if-changed={}", p.display());
            let slug = p.file_stem().unwrap().to_string_lossy().into_owned();
            let abs = p.canonicalize().unwrap();
            pages.push((slug, abs.display().to_string()));
        }
    }
    pages.sort();
    let out = std::path::Path::new(&std::env::var("OUT_DIR").unwrap()).join("pages.rs");
    let mut f = std::fs::File::create(out).unwrap();
    writeln!(f, "pub(crate) static PAGES: &[(&str, &str)] = &[").unwrap();
    for (slug, path) in pages {
        writeln!(f, "    ({slug:?}, include_str!({path:?})),").unwrap();
    }
    writeln!(f, "];").unwrap();
}
