//! The documentation holds together.
//!
//! - Every relative link between `README.md` and `docs/*.md` (images included) points at a
//!   file that exists, and every `#anchor` at a heading of its page, by GitHub's rules for
//!   heading anchors.
//! - `docs/architecture.md`'s layout tables (and the README's, should it have one) list
//!   every top-level module of the engine (each `pub mod` of `engine/src/lib.rs`) and of
//!   the page (each `mod` of `src/main.rs`), and name every controller module.
//! - Every path a docs table names exists.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Component, Path, PathBuf};

/// The repository's root.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the engine lives one level below the repository root")
        .to_path_buf()
}

/// `README.md` and every `docs/*.md`, by path relative to the root, with their text.
fn docs() -> BTreeMap<PathBuf, String> {
    let root = root();
    let mut paths = vec![PathBuf::from("README.md")];
    for entry in std::fs::read_dir(root.join("docs")).expect("docs/ is readable") {
        let name = entry.expect("a docs/ entry").file_name();
        let name = name.to_string_lossy();
        if name.ends_with(".md") {
            paths.push(Path::new("docs").join(&*name));
        }
    }
    paths
        .into_iter()
        .map(|p| {
            let text = std::fs::read_to_string(root.join(&p))
                .unwrap_or_else(|e| panic!("{}: {e}", p.display()));
            (p, text)
        })
        .collect()
}

/// The lines a reader sees as prose: not inside a fenced code block or an HTML comment,
/// with their 1-based line numbers.
fn prose_lines(text: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut fence: Option<(char, usize)> = None;
    let mut in_comment = false;
    for (i, line) in text.lines().enumerate() {
        let trimmed = line.trim_start();
        let run = |c: char| trimmed.chars().take_while(|&x| x == c).count();
        match fence {
            Some((c, n)) => {
                // A closing fence: the same character, at least as long, nothing after.
                if run(c) >= n && trimmed.trim_end().chars().all(|x| x == c) {
                    fence = None;
                }
                continue;
            }
            None => {
                for c in ['`', '~'] {
                    if run(c) >= 3 {
                        fence = Some((c, run(c)));
                    }
                }
                if fence.is_some() {
                    continue;
                }
            }
        }
        if in_comment {
            if line.contains("-->") {
                in_comment = false;
            }
            continue;
        }
        if trimmed.starts_with("<!--") {
            in_comment = !line.contains("-->");
            continue;
        }
        out.push((i + 1, line));
    }
    out
}

/// A line with its inline code spans blanked out, so that `` `[a](b)` `` is not a link.
fn without_code_spans(line: &str) -> String {
    let chars: Vec<char> = line.chars().collect();
    let mut out = String::new();
    let mut i = 0;
    while i < chars.len() {
        if chars[i] != '`' {
            out.push(chars[i]);
            i += 1;
            continue;
        }
        let n = chars[i..].iter().take_while(|&&c| c == '`').count();
        // The span closes at the next run of exactly n backticks; without one, the
        // backticks are literal.
        let mut j = i + n;
        let mut close = None;
        while j < chars.len() {
            if chars[j] == '`' {
                let m = chars[j..].iter().take_while(|&&c| c == '`').count();
                if m == n {
                    close = Some(j);
                    break;
                }
                j += m;
            } else {
                j += 1;
            }
        }
        match close {
            Some(j) => {
                out.push(' ');
                i = j + n;
            }
            None => {
                out.extend(&chars[i..i + n]);
                i += n;
            }
        }
    }
    out
}

/// A heading's text as a reader sees it: links reduced to their text, code spans to
/// their content, emphasis markers and HTML tags dropped.
fn heading_text(raw: &str) -> String {
    let mut s = String::new();
    let chars: Vec<char> = raw.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        match chars[i] {
            // `[text](target)` → text; the target is skipped below.
            ']' if chars.get(i + 1) == Some(&'(') => {
                let mut depth = 0;
                i += 1;
                while i < chars.len() {
                    match chars[i] {
                        '(' => depth += 1,
                        ')' => {
                            depth -= 1;
                            if depth == 0 {
                                break;
                            }
                        }
                        _ => {}
                    }
                    i += 1;
                }
            }
            '[' | ']' | '`' | '*' => {}
            '<' => {
                while i < chars.len() && chars[i] != '>' {
                    i += 1;
                }
            }
            c => s.push(c),
        }
        i += 1;
    }
    s.trim().to_string()
}

/// GitHub's anchor for a heading (github-slugger): lowercase; letters, marks and digits
/// of any script kept, as are `-` and `_` (connector punctuation); other punctuation
/// and symbols (emoji included) removed; each space becomes `-`.
fn slug(text: &str) -> String {
    let connector = ['_', '‿', '⁀', '⁔', '︳', '︴', '﹍', '﹎', '﹏', '＿'];
    // Combining marks (Unicode category M) are kept; Rust's std has no category table,
    // so the blocks of combining marks and variation selectors stand in for it.
    let mark = |c: char| {
        matches!(c as u32,
            0x0300..=0x036F | 0x0483..=0x0489 | 0x0591..=0x05BD | 0x0610..=0x061A
            | 0x064B..=0x065F | 0x0E31 | 0x0E34..=0x0E3A | 0x0E47..=0x0E4E
            | 0x1AB0..=0x1AFF | 0x1DC0..=0x1DFF | 0x20D0..=0x20FF | 0x302A..=0x302F
            | 0x3099..=0x309A | 0xFE00..=0xFE0F | 0xFE20..=0xFE2F | 0xE0100..=0xE01EF)
    };
    text.to_lowercase()
        .chars()
        .filter(|&c| {
            c.is_alphanumeric() || c == '-' || c == ' ' || connector.contains(&c) || mark(c)
        })
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// The anchors a page offers: one per heading (ATX `#` or setext), numbered `-1`, `-2`…
/// when a slug repeats, as GitHub numbers them, plus explicit `id=`/`name=` anchors.
fn anchors(text: &str) -> BTreeSet<String> {
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    let mut out = BTreeSet::new();
    // github-slugger's numbering: while the slug is taken, count the base's repeats and
    // try `base-N`; the slug it settles on is taken from then on.
    let mut add = |base: String, out: &mut BTreeSet<String>| {
        let mut slug = base.clone();
        while seen.contains_key(&slug) {
            let n = seen.get_mut(&base).expect("the base was taken first");
            *n += 1;
            slug = format!("{base}-{n}");
        }
        seen.insert(slug.clone(), 0);
        out.insert(slug);
    };
    let lines = prose_lines(text);
    for (k, &(_, line)) in lines.iter().enumerate() {
        let t = line.trim_start();
        let hashes = t.chars().take_while(|&c| c == '#').count();
        if (1..=6).contains(&hashes) && (t[hashes..].is_empty() || t[hashes..].starts_with(' ')) {
            // A closing run of `#` is not part of the heading.
            let body = t[hashes..].trim().trim_end_matches('#').trim_end();
            add(slug(&heading_text(body)), &mut out);
            continue;
        }
        // Setext: a paragraph line underlined by `===` or `---`.
        let underline = !t.is_empty()
            && (t.trim_end().chars().all(|c| c == '=') || t.trim_end().chars().all(|c| c == '-'));
        if underline && k > 0 && lines[k - 1].0 + 1 == lines[k].0 {
            let prev = lines[k - 1].1.trim();
            let paragraph = !prev.is_empty()
                && !prev.starts_with(['|', '#', '>', '-', '*', '+'])
                && !prev
                    .split_once(". ")
                    .is_some_and(|(n, _)| n.chars().all(|c| c.is_ascii_digit()));
            if paragraph {
                add(slug(&heading_text(prev)), &mut out);
            }
        }
    }
    for (_, line) in &lines {
        for attr in ["id=\"", "name=\""] {
            for (at, _) in line.match_indices(attr) {
                let rest = &line[at + attr.len()..];
                if let Some(end) = rest.find('"') {
                    out.insert(rest[..end].to_string());
                }
            }
        }
    }
    out
}

/// The link targets on one prose line: `[text](target)`, `![alt](target)`, reference
/// definitions `[label]: target`, and HTML `href="…"` / `src="…"`.
fn link_targets(line: &str) -> Vec<String> {
    let line = without_code_spans(line);
    let mut out = Vec::new();
    for (at, _) in line.match_indices("](") {
        let rest = &line[at + 2..];
        let rest = rest.trim_start();
        if let Some(inner) = rest.strip_prefix('<') {
            if let Some(end) = inner.find('>') {
                out.push(inner[..end].to_string());
            }
            continue;
        }
        let mut depth = 0usize;
        let mut end = rest.len();
        for (i, c) in rest.char_indices() {
            match c {
                '(' => depth += 1,
                ')' if depth == 0 => {
                    end = i;
                    break;
                }
                ')' => depth -= 1,
                c if c.is_whitespace() => {
                    end = i;
                    break;
                }
                _ => {}
            }
        }
        out.push(rest[..end].to_string());
    }
    let t = line.trim_start();
    if t.starts_with('[') {
        if let Some((label, target)) = t.split_once("]:") {
            if !label.contains("](") {
                if let Some(target) = target.split_whitespace().next() {
                    out.push(target.trim_matches(['<', '>']).to_string());
                }
            }
        }
    }
    for attr in ["href=\"", "src=\""] {
        for (at, _) in line.match_indices(attr) {
            let rest = &line[at + attr.len()..];
            if let Some(end) = rest.find('"') {
                out.push(rest[..end].to_string());
            }
        }
    }
    out
}

/// `%XX` escapes decoded (a link may spell a space or a Han character so).
fn percent_decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        if bytes[i] == b'%' && i + 2 < bytes.len() {
            if let (Some(hi), Some(lo)) = (hex(bytes[i + 1]), hex(bytes[i + 2])) {
                out.push((hi * 16 + lo) as u8);
                i += 3;
                continue;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// `base/../x` → `x`, without touching the file system; None when it leaves the root.
fn normalize(p: &Path) -> Option<PathBuf> {
    let mut out = PathBuf::new();
    for c in p.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() {
                    return None;
                }
            }
            Component::Normal(s) => out.push(s),
            Component::RootDir | Component::Prefix(_) => {}
        }
    }
    Some(out)
}

/// Every broken link of `pages` (path → text), as `file:line: target: why`. A target
/// outside `pages` is looked up on disk under `root`.
fn broken_links(root: &Path, pages: &BTreeMap<PathBuf, String>) -> Vec<String> {
    let mut anchor_cache: BTreeMap<PathBuf, Option<BTreeSet<String>>> = BTreeMap::new();
    let mut anchors_of = |p: &Path| -> Option<BTreeSet<String>> {
        anchor_cache
            .entry(p.to_path_buf())
            .or_insert_with(|| {
                let text = pages
                    .get(p)
                    .cloned()
                    .or_else(|| std::fs::read_to_string(root.join(p)).ok())?;
                Some(anchors(&text))
            })
            .clone()
    };
    let mut broken = Vec::new();
    for (page, text) in pages {
        let dir = page.parent().unwrap_or(Path::new(""));
        for (n, line) in prose_lines(text) {
            for target in link_targets(line) {
                let external = target.contains("://")
                    || target.starts_with("mailto:")
                    || target.starts_with("//");
                if external || target.is_empty() {
                    continue;
                }
                let where_ = format!("{}:{n}: {target}", page.display());
                let (path, fragment) = match target.split_once('#') {
                    Some((p, f)) => (p, Some(percent_decode(f))),
                    None => (target.as_str(), None),
                };
                let path = path.split('?').next().unwrap_or_default();
                let file = if path.is_empty() {
                    page.clone()
                } else {
                    let joined = match path.strip_prefix('/') {
                        Some(from_root) => PathBuf::from(percent_decode(from_root)),
                        None => dir.join(percent_decode(path)),
                    };
                    match normalize(&joined) {
                        Some(f) => f,
                        None => {
                            broken.push(format!("{where_}: leaves the repository"));
                            continue;
                        }
                    }
                };
                if !pages.contains_key(&file) && !root.join(&file).exists() {
                    broken.push(format!("{where_}: no such file {}", file.display()));
                    continue;
                }
                let Some(fragment) = fragment else { continue };
                if file.extension().is_some_and(|e| e == "md") {
                    let known = anchors_of(&file).unwrap_or_default();
                    if !known.contains(&fragment) {
                        broken.push(format!(
                            "{where_}: {} has no heading with the anchor #{fragment}",
                            file.display()
                        ));
                    }
                } else {
                    // Into a source file, only GitHub's line anchors mean anything.
                    let line_anchor = fragment.strip_prefix('L').is_some_and(|r| {
                        r.split("-L")
                            .all(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()))
                    });
                    if !line_anchor {
                        broken.push(format!(
                            "{where_}: #{fragment} into a file that is not Markdown"
                        ));
                    }
                }
            }
        }
    }
    broken
}

/// The path a table row names in its first cell, when that cell is one code span.
fn table_paths(text: &str) -> Vec<(usize, String)> {
    prose_lines(text)
        .into_iter()
        .filter_map(|(n, line)| {
            let cell = line.trim().strip_prefix('|')?.split('|').next()?.trim();
            let inner = cell.strip_prefix('`')?.strip_suffix('`')?;
            (!inner.contains('`')).then(|| (n, inner.to_string()))
        })
        .collect()
}

/// The modules a Rust file declares (`mod x;` / `pub mod x;`, any cfg), as the path a
/// layout table must name: `DIR/x/` for a module directory, `DIR/x.rs` for a file.
fn declared_modules(root: &Path, file: &str, public_only: bool) -> Vec<String> {
    let dir = Path::new(file).parent().expect("a file in a directory");
    let text = std::fs::read_to_string(root.join(file)).unwrap_or_else(|e| panic!("{file}: {e}"));
    text.lines()
        .filter_map(|l| {
            let l = l.trim();
            let rest = match l.strip_prefix("pub mod ") {
                Some(rest) => rest,
                None if !public_only => l.strip_prefix("mod ")?,
                None => return None,
            };
            let name = rest.strip_suffix(';')?.trim();
            if name == "tests" {
                return None;
            }
            let as_dir = dir.join(name);
            Some(if root.join(&as_dir).is_dir() {
                format!("{}/", as_dir.display())
            } else {
                format!("{}.rs", as_dir.display())
            })
        })
        .collect()
}

/// What a layout table misses: each of `modules` not named by a row of `text`'s tables.
fn missing_rows(text: &str, modules: &[String]) -> Vec<String> {
    let rows: BTreeSet<String> = table_paths(text).into_iter().map(|(_, p)| p).collect();
    modules
        .iter()
        .filter(|m| !rows.contains(*m))
        .cloned()
        .collect()
}

/// The top-level modules of the engine and of the page, as layout rows name them.
fn top_level_modules(root: &Path) -> Vec<String> {
    let mut all = declared_modules(root, "engine/src/lib.rs", true);
    all.extend(declared_modules(root, "src/main.rs", false));
    all
}

/// Whether a page has a layout table of modules (a row naming something under
/// `engine/src/` or `src/`).
fn has_module_table(text: &str) -> bool {
    table_paths(text).iter().any(|(_, p)| {
        p.strip_prefix("engine/src/")
            .or_else(|| p.strip_prefix("src/"))
            .is_some_and(|rest| !rest.is_empty())
    })
}

#[test]
fn every_relative_link_and_anchor_between_the_docs_resolves() {
    let broken = broken_links(&root(), &docs());
    assert!(
        broken.is_empty(),
        "broken links in the docs:\n{}",
        broken.join("\n")
    );
}

#[test]
fn the_architecture_layout_lists_every_top_level_module_of_the_engine_and_the_page() {
    let root = root();
    let modules = top_level_modules(&root);
    assert!(
        modules.contains(&"engine/src/controllers/".to_string())
            && modules.contains(&"src/view/".to_string()),
        "the module lists were read: {modules:?}"
    );
    for (page, text) in docs() {
        // architecture.md must have the table; the README only if it keeps one.
        let checked = page == Path::new("docs/architecture.md")
            || (page == Path::new("README.md") && has_module_table(&text));
        if !checked {
            continue;
        }
        let missing = missing_rows(&text, &modules);
        assert!(
            missing.is_empty(),
            "{}'s layout table has no row for {missing:?} (a row's first cell is the module's path in backticks)",
            page.display()
        );
    }
}

#[test]
fn the_architecture_doc_names_every_controller_module() {
    let root = root();
    let text = &docs()[Path::new("docs/architecture.md")];
    let missing: Vec<String> = declared_modules(&root, "engine/src/controllers/mod.rs", true)
        .into_iter()
        .filter(|m| !text.contains(&format!("`{m}")))
        .collect();
    assert!(
        missing.is_empty(),
        "docs/architecture.md does not name {missing:?}"
    );
}

#[test]
fn every_path_a_docs_table_names_exists() {
    let root = root();
    let prefixes = ["engine/", "src/", "tests/", "scripts/", "docs/", "static/"];
    let mut gone = Vec::new();
    for (page, text) in docs() {
        for (n, p) in table_paths(&text) {
            if prefixes.iter().any(|x| p.starts_with(x)) && !root.join(&p).exists() {
                gone.push(format!("{}:{n}: {p}", page.display()));
            }
        }
    }
    assert!(
        gone.is_empty(),
        "docs tables name paths that do not exist:\n{}",
        gone.join("\n")
    );
}

#[test]
fn anchors_follow_githubs_slugs_punctuation_dropped_unicode_kept_repeats_numbered() {
    let text = "# kubeplay's architecture\n\
        ## Real kubectl against the simulation: `kubeplay-cli serve`\n\
        ## The engine (`engine/src/`)\n\
        ## postMessage API (version 1)\n\
        ## 在课程页面中嵌入 kubeplay\n\
        ### 链接能带什么？\n\
        ## A 🔍 opens it\n\
        ## What if\n\
        ## What if 1\n\
        ## What if\n\
        ```\n\
        # not a heading\n\
        ```\n\
        Setext heading\n\
        ---\n\
        <a id=\"explicit\"></a>\n";
    let got = anchors(text);
    let want: BTreeSet<String> = [
        "kubeplays-architecture",
        "real-kubectl-against-the-simulation-kubeplay-cli-serve",
        "the-engine-enginesrc",
        "postmessage-api-version-1",
        "在课程页面中嵌入-kubeplay",
        "链接能带什么",
        "a--opens-it",
        "what-if",
        "what-if-1",
        "what-if-2",
        "setext-heading",
        "explicit",
    ]
    .into_iter()
    .map(String::from)
    .collect();
    assert_eq!(got, want);
}

#[test]
fn a_missing_file_a_missing_anchor_and_a_missing_image_are_each_reported() {
    let root = root();
    let mut pages = BTreeMap::new();
    pages.insert(
        PathBuf::from("docs/a.md"),
        "# A\n\
         ## Known heading\n\
         [ok](#known-heading) [ok](b.md#b-section) [ok](../README.md) ![ok](screenshot-why.png)\n\
         [gone](nowhere.md) [bad anchor](b.md#no-such) ![gone](missing.png)\n\
         `[not a link](nowhere.md)`\n\
         ```\n[not a link either](nowhere.md)\n```\n"
            .to_string(),
    );
    pages.insert(
        PathBuf::from("docs/b.md"),
        "# B\n## B section\n[back](a.md#a)\n".to_string(),
    );
    let broken = broken_links(&root, &pages);
    assert_eq!(broken.len(), 3, "{broken:#?}");
    assert!(
        broken[0].starts_with("docs/a.md:4: nowhere.md: no such file"),
        "{broken:#?}"
    );
    assert!(
        broken[1].contains("b.md#no-such") && broken[1].contains("#no-such"),
        "{broken:#?}"
    );
    assert!(
        broken[2].contains("missing.png: no such file"),
        "{broken:#?}"
    );
}

#[test]
fn a_layout_table_without_a_module_row_is_caught() {
    let modules = vec![
        "engine/src/api/".to_string(),
        "engine/src/proxy.rs".to_string(),
    ];
    let table = "| path | what |\n|---|---|\n| `engine/src/api/` | objects |\n";
    assert_eq!(
        missing_rows(table, &modules),
        vec!["engine/src/proxy.rs".to_string()]
    );
    let full = format!("{table}| `engine/src/proxy.rs` | kube-proxy |\n");
    assert!(missing_rows(&full, &modules).is_empty());
    assert!(has_module_table(table));
    assert!(!has_module_table(
        "| path | what |\n|---|---|\n| `engine/` | the engine |\n| `src/` | the page |\n"
    ));
}
