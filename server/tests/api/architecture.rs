//! The layering holds: the crates depend one way (`engine` ← `desk` ← `app` ← `server`), and no
//! two modules of a crate import each other, directly or round a cycle.
//!
//! Why a test: a cycle is easy to add and hard to see (each import looks harmless on its own),
//! and once there, neither module can be understood or changed without the other. The scan reads
//! the sources as text: every `crate::a::b` path and every `super::x` names a module (the longest
//! prefix that is one); code under `#[cfg(test)] mod tests` and comments do not count.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// `a::b` for `src/a/b.rs` or `src/a/b/mod.rs`; the crate root is the empty path.
fn module_of(src: &Path, file: &Path) -> String {
    let relative = file.strip_prefix(src).unwrap().with_extension("");
    let mut parts: Vec<String> = relative
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if matches!(
        parts.last().map(String::as_str),
        Some("mod" | "lib" | "main")
    ) {
        parts.pop();
    }
    parts.join("::")
}

fn rust_files(dir: &Path, files: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, files);
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
}

/// The source without its unit tests and comments.
fn code(text: &str) -> String {
    let text = text
        .find("#[cfg(test)]\nmod tests")
        .map_or(text, |at| &text[..at]);
    text.lines()
        .map(|line| line.find("//").map_or(line, |at| &line[..at]))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The paths after `prefix` in `code`: `crate::a::b::C` gives `["a", "b", "C"]`, and a group
/// `crate::a::{b, c::{D, E}}` gives `["a", "b"]`, `["a", "c", "D"]` and `["a", "c", "E"]`
/// (`self` in a group names the path before it).
fn paths_after(code: &str, prefix: &str) -> Vec<Vec<String>> {
    let mut found = Vec::new();
    let mut rest = code;
    while let Some(at) = rest.find(prefix) {
        let before = rest[..at].chars().last();
        let tail = &rest[at + prefix.len()..];
        let consumed = if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
            0
        } else {
            read_path(tail, Vec::new(), &mut found)
        };
        rest = &tail[consumed..];
    }
    found
}

/// Reads one path (or group) at the start of `text` below `base`, pushing what it names;
/// answers how many bytes it read.
fn read_path(text: &str, base: Vec<String>, found: &mut Vec<Vec<String>>) -> usize {
    let end = text
        .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
        .unwrap_or(text.len());
    let mut path = base;
    path.extend(
        text[..end]
            .split("::")
            .filter(|s| !s.is_empty() && *s != "self")
            .map(str::to_string),
    );
    if text[end..].starts_with('{') && (end == 0 || text[..end].ends_with("::")) {
        // A group: each comma-separated item is a path below this one.
        let mut at = end + 1;
        loop {
            let item = &text[at..];
            let skipped = item.len() - item.trim_start().len();
            at += skipped;
            match text[at..].chars().next() {
                None => return at,
                Some('}') => return at + 1,
                Some(',') => at += 1,
                Some(_) => {
                    let read = read_path(&text[at..], path.clone(), found);
                    // Skip what follows a path inside a group (`as Name`) up to `,` or `}`.
                    at += read.max(1);
                    let tail = &text[at..];
                    let stop = tail.find([',', '}']).unwrap_or(tail.len());
                    if tail[..stop].trim_start().starts_with("as ")
                        || tail[..stop].trim().is_empty()
                    {
                        at += stop;
                    }
                }
            }
        }
    }
    found.push(path);
    end
}

/// Module → the modules it names.
fn imports(src: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    let sources: BTreeMap<String, String> = files
        .iter()
        .map(|f| {
            (
                module_of(src, f),
                code(&std::fs::read_to_string(f).unwrap()),
            )
        })
        .collect();
    let is_module = |m: &str| sources.contains_key(m);
    let longest_module = |parts: &[&str]| {
        (1..=parts.len())
            .rev()
            .map(|n| parts[..n].join("::"))
            .find(|m| is_module(m))
    };
    let related = |a: &str, b: &str| {
        a == b || a.starts_with(&format!("{b}::")) || b.starts_with(&format!("{a}::"))
    };
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (module, text) in &sources {
        let parent: Vec<&str> = module.split("::").filter(|s| !s.is_empty()).collect();
        let parent = &parent[..parent.len().saturating_sub(1)];
        let named = paths_after(text, "crate::").into_iter().chain(
            paths_after(text, "super::").into_iter().map(|mut p| {
                let mut full: Vec<String> = parent.iter().map(|s| s.to_string()).collect();
                while p.first().map(String::as_str) == Some("super") {
                    full.pop();
                    p.remove(0);
                }
                full.extend(p);
                full
            }),
        );
        for path in named {
            let path: Vec<&str> = path.iter().map(String::as_str).collect();
            if let Some(target) = longest_module(&path)
                && !related(module, &target)
                && !target.is_empty()
            {
                edges.entry(module.clone()).or_default().insert(target);
            }
        }
    }
    edges
}

/// The strongly connected components with more than one module (Tarjan).
fn cycles(edges: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    struct State<'a> {
        edges: &'a BTreeMap<String, BTreeSet<String>>,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        found: Vec<Vec<String>>,
    }
    fn visit<'a>(s: &mut State<'a>, v: &'a str) {
        let n = s.index.len();
        s.index.insert(v, n);
        s.low.insert(v, n);
        s.stack.push(v);
        for w in s.edges.get(v).into_iter().flatten() {
            if !s.index.contains_key(w.as_str()) {
                visit(s, w);
                let low = s.low[v].min(s.low[w.as_str()]);
                s.low.insert(v, low);
            } else if s.stack.contains(&w.as_str()) {
                let low = s.low[v].min(s.index[w.as_str()]);
                s.low.insert(v, low);
            }
        }
        if s.low[v] == s.index[v] {
            let mut component = Vec::new();
            while let Some(w) = s.stack.pop() {
                component.push(w.to_string());
                if w == v {
                    break;
                }
            }
            if component.len() > 1 {
                s.found.push(component);
            }
        }
    }
    let mut state = State {
        edges,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        found: Vec::new(),
    };
    for v in edges.keys() {
        if !state.index.contains_key(v.as_str()) {
            visit(&mut state, v);
        }
    }
    state.found
}

#[test]
fn no_two_modules_of_a_crate_import_each_other() {
    let mut all = Vec::new();
    for krate in ["engine", "desk", "app", "server"] {
        let edges = imports(&workspace().join(krate).join("src"));
        assert!(edges.len() > 3, "{krate}: the scan found no imports");
        for cycle in cycles(&edges) {
            all.push(format!("{krate}: {cycle:?}"));
        }
    }
    assert!(all.is_empty(), "import cycles:\n{}", all.join("\n"));
}

#[test]
fn the_scan_sees_a_cycle_when_there_is_one() {
    let mut edges = BTreeMap::new();
    edges.insert("a".to_string(), BTreeSet::from(["b".to_string()]));
    edges.insert("b".to_string(), BTreeSet::from(["c".to_string()]));
    edges.insert("c".to_string(), BTreeSet::from(["a".to_string()]));
    edges.insert("d".to_string(), BTreeSet::from(["a".to_string()]));
    let found = cycles(&edges);
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].len(), 3);
    assert_eq!(
        paths_after(
            "use crate::store::plans::DraftWrite; x.supercrate::y",
            "crate::"
        ),
        vec![vec!["store", "plans", "DraftWrite"]]
    );
    // Grouped imports name every module of the group, nested groups too.
    assert_eq!(
        paths_after(
            "use super::{a, b::{self, C as D}, e::f::G};\nuse crate::{x::Y, z};",
            "super::"
        ),
        vec![vec!["a"], vec!["b"], vec!["b", "C"], vec!["e", "f", "G"],]
    );
    assert_eq!(
        paths_after("use crate::{x::Y, z};", "crate::"),
        vec![vec!["x", "Y"], vec!["z"]]
    );
}

#[test]
fn the_crates_depend_one_way() {
    let dependencies = |krate: &str| -> String {
        let manifest = std::fs::read_to_string(workspace().join(krate).join("Cargo.toml")).unwrap();
        let start = manifest.find("[dependencies]").unwrap();
        let rest = &manifest[start + "[dependencies]".len()..];
        rest[..rest.find("\n[").unwrap_or(rest.len())].to_string()
    };
    let names = |krate: &str| -> BTreeSet<String> {
        dependencies(krate)
            .lines()
            .filter_map(|line| line.split('=').next())
            .map(|name| name.trim().to_string())
            .filter(|name| ["engine", "desk", "app", "server"].contains(&name.as_str()))
            .collect()
    };
    let set = |names: &[&str]| names.iter().map(|n| n.to_string()).collect::<BTreeSet<_>>();
    assert_eq!(names("engine"), set(&[]));
    assert_eq!(names("desk"), set(&["engine"]));
    assert_eq!(names("app"), set(&["engine", "desk"]));
    assert_eq!(names("server"), set(&["engine", "desk", "app"]));
}
