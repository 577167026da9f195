//! `docs/course-map.md` (and its Chinese twin) stays true: every row names a lesson step
//! that exists, or says why it is shown from the console or not at all; both files hold
//! the same rows; and the counts at the end are the rows' counts. (Every built-in lesson
//! reaching all its goals is `scenarios.rs`'s test.)

use kubeplay_engine::scenario;
use std::collections::BTreeMap;

/// One row: (section, id, status, where).
type Row = (String, String, String, String);

fn rows(path: &str) -> (Vec<Row>, BTreeMap<String, [usize; 4]>) {
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
            counts.insert(cells[0].to_string(), [n[0], n[1], n[2], n[3]]);
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

#[test]
fn every_lesson_step_the_course_map_names_exists() {
    let (rows, _) = rows("docs/course-map.md");
    assert!(rows.len() > 200, "{} rows", rows.len());
    let mut named = 0;
    for (_, id, status, place) in &rows {
        match status.as_str() {
            "lesson" => {
                let refs = steps(place);
                assert!(
                    !refs.is_empty(),
                    "{id}: a lesson row names `id` step N: {place}"
                );
                for (lesson, step) in refs {
                    let s = scenario::builtin(&lesson)
                        .unwrap_or_else(|| panic!("{id}: no built-in lesson {lesson}"))
                        .unwrap();
                    assert!(
                        (1..=s.steps.len()).contains(&step),
                        "{id}: {lesson} has {} steps, not step {step}",
                        s.steps.len()
                    );
                    named += 1;
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
    for counts in [&en_counts, &zh_counts] {
        let mut total = [0; 4];
        for (section, [lesson, console, none, all]) in counts.iter().filter(|(k, _)| *k != "total")
        {
            let of = |s: &str| en.iter().filter(|r| &r.0 == section && r.2 == s).count();
            assert_eq!(
                [of("lesson"), of("console"), of("not observable")],
                [*lesson, *console, *none],
                "{section}"
            );
            assert_eq!(lesson + console + none, *all, "{section}");
            for (t, n) in total.iter_mut().zip([lesson, console, none, all]) {
                *t += n;
            }
        }
        assert_eq!(counts.get("total"), Some(&total));
        assert_eq!(total[3], en.len());
    }
}
