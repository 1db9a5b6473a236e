//! Embeds every page under docs/causes/ into the binary: adding a page is adding a file.

use std::io::Write;

fn main() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/causes");
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut pages: Vec<(String, String)> = Vec::new();
    if let Ok(rd) = std::fs::read_dir(&dir) {
        for e in rd.flatten() {
            let p = e.path();
            if p.extension().is_some_and(|x| x == "md") {
                println!("cargo:rerun-if-changed={}", p.display());
                let slug = p.file_stem().unwrap().to_string_lossy().into_owned();
                let abs = p.canonicalize().unwrap();
                pages.push((slug, abs.display().to_string()));
            }
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
