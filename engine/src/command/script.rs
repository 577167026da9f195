//! Scripts: one command a line, `#` comments, blank lines, `\` continuation, and
//! `kubectl apply -f - <<EOF … EOF` heredocs feeding stdin.

use super::{run, Files, Outcome};
use crate::cluster::Cluster;

/// One command of a script, with where it came from.
#[derive(Clone, Debug, PartialEq)]
pub struct ScriptLine {
    /// 1-based line number of the command's first line.
    pub line: usize,
    /// The command text (continuations joined, heredoc marker removed).
    pub command: String,
    /// Heredoc body, if any.
    pub stdin: Option<String>,
}

/// Parse a script. Errors name the line: `script.sh:12: unterminated heredoc (EOF)`.
pub fn parse(text: &str, source: &str) -> Result<Vec<ScriptLine>, String> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let start = i;
        let mut cmd = String::new();
        loop {
            let l = lines[i];
            i += 1;
            match l.strip_suffix('\\') {
                Some(head) if i < lines.len() => {
                    cmd.push_str(head);
                    cmd.push(' ');
                }
                Some(head) => {
                    cmd.push_str(head);
                    break;
                }
                None => {
                    cmd.push_str(l);
                    break;
                }
            }
        }
        let trimmed = cmd.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let mut command = trimmed.to_string();
        let mut stdin = None;
        if let Some(pos) = find_heredoc(&command) {
            let marker_spec = command[pos + 2..].trim().to_string();
            command = command[..pos].trim_end().to_string();
            let strip_tabs = marker_spec.starts_with('-');
            let marker = marker_spec
                .trim_start_matches('-')
                .trim_matches(|c| c == '\'' || c == '"')
                .to_string();
            if marker.is_empty() || marker.contains(char::is_whitespace) {
                return Err(format!(
                    "{source}:{}: bad heredoc marker in: {trimmed}",
                    start + 1
                ));
            }
            let mut body = String::new();
            let mut closed = false;
            while i < lines.len() {
                let l = lines[i];
                i += 1;
                let l = if strip_tabs {
                    l.trim_start_matches('\t')
                } else {
                    l
                };
                if l.trim_end() == marker {
                    closed = true;
                    break;
                }
                body.push_str(l);
                body.push('\n');
            }
            if !closed {
                return Err(format!(
                    "{source}:{}: unterminated heredoc (expected a line \"{marker}\")",
                    start + 1
                ));
            }
            stdin = Some(body);
        }
        out.push(ScriptLine {
            line: start + 1,
            command,
            stdin,
        });
    }
    Ok(out)
}

/// Position of an unquoted `<<`.
fn find_heredoc(s: &str) -> Option<usize> {
    let mut quote: Option<char> = None;
    let b: Vec<char> = s.chars().collect();
    let mut byte = 0;
    for (i, c) in b.iter().enumerate() {
        match (quote, *c) {
            (Some(q), x) if x == q => quote = None,
            (Some(_), _) => {}
            (None, '\'' | '"') => quote = Some(*c),
            (None, '<') if b.get(i + 1) == Some(&'<') => return Some(byte),
            _ => {}
        }
        byte += c.len_utf8();
    }
    None
}

/// The result of running a script.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ScriptRun {
    /// `$ command` then its output, for every command.
    pub transcript: String,
    /// `sim expect` checks that failed.
    pub failed_expectations: usize,
    /// `sim expect` checks run.
    pub expectations: usize,
    /// Commands that exited non-zero (expectations included).
    pub failed_commands: usize,
}

/// Run parsed commands in order, as the console would, collecting the transcript.
pub fn run_lines(c: &mut Cluster, lines: &[ScriptLine], files: &dyn Files) -> ScriptRun {
    let mut r = ScriptRun::default();
    for l in lines {
        let o: Outcome = run(c, &l.command, l.stdin.as_deref(), files);
        r.transcript.push_str(&format!("$ {}\n", l.command));
        r.transcript.push_str(&o.output);
        if let Some(ok) = o.expectation {
            r.expectations += 1;
            if !ok {
                r.failed_expectations += 1;
            }
        }
        if !o.ok {
            r.failed_commands += 1;
        }
    }
    r
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scripts_join_continuations_skip_comments_and_read_heredocs() {
        let s = "# setup\n\nkubectl create deployment web \\\n  --image=nginx\nkubectl apply -f - <<EOF\napiVersion: v1\nkind: Pod\nEOF\nsim settle\n";
        let lines = parse(s, "t.sh").unwrap();
        assert_eq!(lines.len(), 3);
        assert_eq!(
            lines[0].command,
            "kubectl create deployment web    --image=nginx"
        );
        assert_eq!(lines[0].line, 3);
        assert_eq!(lines[1].command, "kubectl apply -f -");
        assert_eq!(
            lines[1].stdin.as_deref(),
            Some("apiVersion: v1\nkind: Pod\n")
        );
        assert_eq!(lines[2].line, 9);
    }

    #[test]
    fn an_unterminated_heredoc_names_its_line() {
        let e = parse("sim time\nkubectl apply -f - <<'END'\nkind: Pod\n", "s.sh").unwrap_err();
        assert_eq!(e, "s.sh:2: unterminated heredoc (expected a line \"END\")");
    }
}
