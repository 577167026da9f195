//! The worked examples in docs/authors.md load as they are and pass `kubeplay-cli
//! scenario` (every goal reached, every step as the lesson says), so the docs cannot
//! drift from the format.

use kubeplay_engine::scenario::{parse, play};

#[test]
fn every_worked_example_in_the_authors_guide_loads_and_reaches_its_goals() {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/authors.md"))
        .unwrap();
    let section = text
        .split("### Worked examples")
        .nth(1)
        .expect("the guide has worked examples");
    let examples: Vec<&str> = section
        .split("```yaml\n")
        .skip(1)
        .filter_map(|b| b.split("```").next())
        .collect();
    assert!(examples.len() >= 4, "{} examples", examples.len());
    for y in examples {
        let s = parse(y, "example.yaml").unwrap_or_else(|e| panic!("{e}\n{y}"));
        let r = play(&s, "en").unwrap();
        assert!(r.passed(), "{}: {}", s.id, r.transcript);
    }
}

/// The Chinese guide is level with the English one: the same sections, and the same
/// scenario files (the YAML is shared; only the prose around it is translated).
#[test]
fn the_chinese_authors_guide_has_every_section_and_example_of_the_english_one() {
    let read = |f: &str| {
        std::fs::read_to_string(format!("{}/../docs/{f}", env!("CARGO_MANIFEST_DIR"))).unwrap()
    };
    let (en, zh) = (read("authors.md"), read("authors.zh.md"));
    let headings = |t: &str| t.lines().filter(|l| l.starts_with('#')).count();
    assert_eq!(headings(&en), headings(&zh), "the same number of sections");
    let blocks = |t: &str, lang: &str| -> Vec<String> {
        t.split(&format!("```{lang}\n"))
            .skip(1)
            .filter_map(|b| b.split("```").next())
            .map(str::to_string)
            .collect()
    };
    for lang in ["yaml", "html", "markdown", "jsx"] {
        assert_eq!(blocks(&en, lang), blocks(&zh, lang), "the {lang} blocks");
    }
}
