//! `docs/course-map.md` (and its Chinese twin) stays true: every row names a lesson step
//! that exists, says what a `partly` row's steps do not show, or says why it is shown
//! from the console or not at all; both files hold the same rows; every built-in lesson
//! is cited by some row; and the counts at the end are the rows' counts. (Every built-in
//! lesson reaching all its goals, and every step printing what it must, is
//! `scenarios.rs`'s test.)

use kubeplay_engine::scenario;
use std::collections::BTreeMap;

/// One row: (section, id, status, where).
type Row = (String, String, String, String);

/// A text's counts: lesson, partly, console, not observable, total.
type Counts = [usize; 5];

fn rows(path: &str) -> (Vec<Row>, BTreeMap<String, Counts>) {
    let text = std::fs::read_to_string(format!("{}/../{path}", env!("CARGO_MANIFEST_DIR")))
        .unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut section = String::new();
    let mut out = Vec::new();
    let mut counts = BTreeMap::new();
    for line in text.lines() {
        if let Some(h) = line.strip_prefix("## ") {
            section = h.trim().to_string();
            continue;
        }
        let cells: Vec<&str> = line
            .trim()
            .trim_matches('|')
            .split('|')
            .map(str::trim)
            .collect();
        if !line.starts_with('|')
            || cells[0] == "#"
            || cells[0] == "Text"
            || cells[0].starts_with("---")
        {
            continue;
        }
        if section == "Counts" {
            let n: Vec<usize> = cells[1..].iter().map(|c| c.parse().unwrap()).collect();
            assert_eq!(n.len(), 5, "{path}: a count row has five numbers: {line}");
            counts.insert(cells[0].to_string(), [n[0], n[1], n[2], n[3], n[4]]);
            continue;
        }
        assert_eq!(cells.len(), 5, "{path}: a row has five cells: {line}");
        out.push((
            section.clone(),
            cells[0].to_string(),
            cells[3].to_string(),
            cells[4].to_string(),
        ));
    }
    (out, counts)
}

/// The `` `lesson-id` step N `` references in a Where cell.
fn steps(place: &str) -> Vec<(String, usize)> {
    place
        .split("; ")
        .filter_map(|p| {
            let (id, rest) = p.trim().strip_prefix('`')?.split_once('`')?;
            let n = rest.trim().strip_prefix("step ")?.trim().parse().ok()?;
            Some((id.to_string(), n))
        })
        .collect()
}

/// The lesson steps a row cites, each checked to exist.
fn cited_steps(id: &str, place: &str) -> Vec<(String, usize)> {
    let refs = steps(place);
    assert!(
        !refs.is_empty(),
        "{id}: a lesson row names `id` step N: {place}"
    );
    for (lesson, step) in &refs {
        let s = scenario::builtin(lesson)
            .unwrap_or_else(|| panic!("{id}: no built-in lesson {lesson}"))
            .unwrap();
        assert!(
            (1..=s.steps.len()).contains(step),
            "{id}: {lesson} has {} steps, not step {step}",
            s.steps.len()
        );
    }
    refs
}

#[test]
fn every_lesson_step_the_course_map_names_exists() {
    for (path, missing) in [
        ("docs/course-map.md", "; missing: "),
        ("docs/course-map.zh.md", "; 缺少："),
    ] {
        let (rows, _) = rows(path);
        assert!(rows.len() > 200, "{} rows", rows.len());
        let mut named = 0;
        let mut cited = std::collections::BTreeSet::new();
        for (_, id, status, place) in &rows {
            match status.as_str() {
                "lesson" => {
                    assert!(
                        !place.contains(missing),
                        "{id}: a lesson row shows all of it"
                    );
                    for (lesson, _) in cited_steps(id, place) {
                        cited.insert(lesson);
                        named += 1;
                    }
                }
                "partly" => {
                    let (steps_part, what) = place.split_once(missing).unwrap_or_else(|| {
                        panic!("{path} {id}: a partly row says what is {missing:?}")
                    });
                    assert!(what.len() > 10, "{id}: say what is missing");
                    for (lesson, _) in cited_steps(id, steps_part) {
                        cited.insert(lesson);
                    }
                }
                "console" => assert!(
                    place.contains('`'),
                    "{id}: a console row gives its commands"
                ),
                "not observable" => assert!(!place.is_empty(), "{id}: say why"),
                other => panic!("{id}: unknown status {other:?}"),
            }
        }
        assert!(named > 150, "{named} lesson steps named");
        let uncited: Vec<&str> = scenario::BUILTIN
            .iter()
            .map(|(id, _)| *id)
            .filter(|id| !cited.contains(*id))
            .collect();
        assert!(
            uncited.is_empty(),
            "{path}: lessons no row cites: {uncited:?}"
        );
    }
}

#[test]
fn the_chinese_course_map_holds_the_same_rows_and_both_count_them_right() {
    let (en, en_counts) = rows("docs/course-map.md");
    let (zh, zh_counts) = rows("docs/course-map.zh.md");
    let key = |r: &Row| (r.0.clone(), r.1.clone(), r.2.clone(), steps(&r.3));
    assert_eq!(
        en.iter().map(key).collect::<Vec<_>>(),
        zh.iter().map(key).collect::<Vec<_>>()
    );
    let mut ids: Vec<&String> = en.iter().map(|r| &r.1).collect();
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), en.len(), "row ids are unique");
    const STATUSES: [&str; 4] = ["lesson", "partly", "console", "not observable"];
    for counts in [&en_counts, &zh_counts] {
        let mut total = [0; 5];
        for (section, n) in counts.iter().filter(|(k, _)| *k != "total") {
            let of = |s: &str| en.iter().filter(|r| &r.0 == section && r.2 == s).count();
            assert_eq!(
                STATUSES.map(of),
                [n[0], n[1], n[2], n[3]],
                "{section}: lesson, partly, console, not observable"
            );
            assert_eq!(n[..4].iter().sum::<usize>(), n[4], "{section}");
            for (t, k) in total.iter_mut().zip(n) {
                *t += k;
            }
        }
        assert_eq!(counts.get("total"), Some(&total));
        assert_eq!(total[4], en.len());
    }
}
