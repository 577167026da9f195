//! Reading a scenario file: the YAML bounds, the parser's errors with line and column,
//! and the checks a file must pass (ids, nodes, goal checks, step commands, predictions).

use super::format::Scenario;
use crate::command::{self, args::parse_span, script};

/// Parse and validate a scenario file. Errors name the file and, for YAML, the line
/// and column.
pub fn parse(text: &str, source: &str) -> Result<Scenario, String> {
    // Before the parser, as for manifests (`yaml_depth`).
    crate::yaml_depth::check(text).map_err(|e| {
        format!(
            "error: {source} at line {} column {}: exceeded max depth of {}",
            e.line,
            e.column,
            crate::yaml_depth::MAX_FLOW_DEPTH
        )
    })?;
    crate::yaml_depth::check_expansion(text).map_err(|e| format!("error: {source}: {e}"))?;
    let s: Scenario = serde_yaml_ng::from_str(text).map_err(|e| {
        let at = e
            .location()
            .map(|l| format!(" at line {} column {}", l.line(), l.column()))
            .unwrap_or_default();
        // serde_yaml_ng appends its own "at line…"; say it once, ours first.
        let msg = e.to_string();
        let msg = msg.split(" at line ").next().unwrap_or(&msg).to_string();
        format!("error: {source}{at}: {msg}")
    })?;
    validate(&s).map_err(|e| format!("error: {source}: {e}"))?;
    Ok(s)
}

/// A `sim expect` check's shape: `KIND/NAME JSONPATH OP VALUE` or `count KIND … OP VALUE`.
fn check_expect(expect: &str, at: &str) -> Result<(), String> {
    let words = command::args::split_words(expect).map_err(|e| format!("{at}: {e}"))?;
    if words.len() < 4 {
        return Err(format!(
            "{at}: \"{expect}\" is not KIND/NAME JSONPATH OP VALUE or count KIND … OP VALUE"
        ));
    }
    if !matches!(
        words[words.len() - 2].as_str(),
        "==" | "!=" | ">=" | "<=" | ">" | "<"
    ) {
        return Err(format!(
            "{at}: unknown operator \"{}\"",
            words[words.len() - 2]
        ));
    }
    Ok(())
}

fn validate(s: &Scenario) -> Result<(), String> {
    if s.id.is_empty()
        || !s
            .id
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
    {
        return Err(format!(
            "id \"{}\" must be lowercase letters, digits and '-'",
            s.id
        ));
    }
    if s.cluster.nodes.is_empty() {
        return Err("cluster.nodes: at least one node".into());
    }
    if s.cluster.nodes.len() > 5_000 {
        return Err("cluster.nodes: at most 5000 nodes".into());
    }
    for (i, g) in s.goals.iter().enumerate() {
        check_expect(&g.expect, &format!("goals[{i}].expect"))?;
    }
    for (i, st) in s.steps.iter().enumerate() {
        if let Some(w) = &st.wait {
            parse_span("", w).map_err(|e| format!("steps[{i}].wait: {e}"))?;
        }
        if let Some(c) = &st.command {
            script::parse(c, "step").map_err(|e| format!("steps[{i}].command: {e}"))?;
        }
        if let Some(c) = &st.look {
            script::parse(c, "look").map_err(|e| format!("steps[{i}].look: {e}"))?;
            no_controller(c, &format!("steps[{i}].look"))?;
        }
        if let Some(p) = &st.predict {
            match (p.choices.len(), &p.number) {
                (0, Some(_)) | (2.., None) => {}
                _ => {
                    return Err(format!(
                        "steps[{i}].predict: give either two or more choices or a number, not both"
                    ))
                }
            }
            for (j, ch) in p.choices.iter().enumerate() {
                check_expect(&ch.when, &format!("steps[{i}].predict.choices[{j}].when"))?;
            }
            if let Some(n) = &p.number {
                check_expect(&format!("{n} == 0"), &format!("steps[{i}].predict.number"))?;
            }
        }
        if let Some(e) = &st.expect {
            if e != "error" {
                return Err(format!(
                    "steps[{i}].expect: \"{e}\" is not \"error\" (the only outcome a step declares)"
                ));
            }
        }
    }
    if let Some(t) = &s.timeout {
        parse_span("", t).map_err(|e| format!("timeout: {e}"))?;
    }
    if let Some(f) = &s.fork {
        script::parse(f, "fork").map_err(|e| format!("fork: {e}"))?;
        no_controller(f, "fork")?;
    }
    script::parse(&s.setup, "setup").map_err(|e| format!("setup: {e}"))?;
    no_controller(&s.setup, "setup")?;
    Ok(())
}

/// A lesson runs the learner's kind of code only from a step's command: the page
/// shows a step's controller and runs it once the learner chooses to, and a lesson's
/// setup, fork and looks run without asking.
fn no_controller(text: &str, field: &str) -> Result<(), String> {
    match crate::command::controller_code(text) {
        Some(_) => Err(format!(
            "{field}: sim controller run belongs in a step's command, where the learner sees the code before it runs (so does sim webhook run)"
        )),
        None => Ok(()),
    }
}
