//! Scripts: one command a line, `#` comments, blank lines, `\` continuation, and
//! `kubectl apply -f - <<EOF … EOF` heredocs feeding stdin.
//!
//! A script fails loudly: every command must succeed, except a line that says it is
//! meant to fail with a trailing `# expect error` comment (a lesson that teaches an
//! error). Such a line that succeeds is itself a failure.

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
    /// The line ends with `# expect error`: the command is meant to fail.
    pub expect_error: bool,
}

impl ScriptLine {
    /// The command as the console shows it: a heredoc's body left out (`… <<EOF …`).
    pub fn shown(&self) -> String {
        match &self.stdin {
            Some(_) => format!("{} <<EOF …", self.command),
            None => self.command.clone(),
        }
    }
}

/// The trailing comment that marks a command meant to fail.
pub const EXPECT_ERROR: &str = "# expect error";

/// Split a shell-style trailing comment off a command: a `#` that starts a word
/// outside quotes, as sh reads it (so `a#b` and `'# x'` are not comments).
fn split_comment(s: &str) -> (&str, Option<&str>) {
    let mut quote: Option<char> = None;
    let mut prev_space = true;
    for (i, c) in s.char_indices() {
        match (quote, c) {
            (Some(q), x) if x == q => quote = None,
            (Some(_), _) => {}
            (None, '\'' | '"') => quote = Some(c),
            (None, '#') if prev_space => return (s[..i].trim_end(), Some(&s[i..])),
            _ => {}
        }
        prev_space = c.is_whitespace();
    }
    // A quote left open makes the line an error anyway (the tokenizer says so); still
    // honour a marker at its very end, so such a line can teach that error.
    match s.strip_suffix(EXPECT_ERROR) {
        Some(head) if quote.is_some() && head.ends_with(char::is_whitespace) => {
            (head.trim_end(), Some(EXPECT_ERROR))
        }
        _ => (s, None),
    }
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
        // Why strip comments here rather than in the tokenizer: the marker must come off
        // before the heredoc marker is read (`apply -f - <<EOF # expect error`).
        let (code, comment) = split_comment(trimmed);
        let expect_error = comment.is_some_and(|c| {
            c.trim_start_matches('#')
                .split_whitespace()
                .collect::<Vec<_>>()
                == ["expect", "error"]
        });
        let mut command = code.to_string();
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
            expect_error,
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
    /// Commands whose result was not the one the script declared: a failure on a line
    /// without `# expect error`, or a success on a line with it (expectations included).
    pub unexpected: usize,
}

impl ScriptRun {
    /// Every command did what the script said it would: a `sim expect` is a command, so
    /// an expectation that failed fails the run unless its line says `# expect error`.
    pub fn passed(&self) -> bool {
        self.unexpected == 0
    }
}

/// Run parsed commands in order, as the console would, collecting the transcript.
pub fn run_lines(c: &mut Cluster, lines: &[ScriptLine], files: &dyn Files) -> ScriptRun {
    run_lines_streaming(c, lines, files, &mut |_| {})
}

/// [`run_lines`], handing each command's part of the transcript to `out` as soon as it
/// ran (the CLI prints and flushes it, so whatever ends the process later cannot lose
/// what was already printed).
pub fn run_lines_streaming(
    c: &mut Cluster,
    lines: &[ScriptLine],
    files: &dyn Files,
    out: &mut dyn FnMut(&str),
) -> ScriptRun {
    let mut r = ScriptRun::default();
    for l in lines {
        let o: Outcome = run(c, &l.command, l.stdin.as_deref(), files);
        let from = r.transcript.len();
        if l.expect_error {
            r.transcript
                .push_str(&format!("$ {}   {EXPECT_ERROR}\n", l.command));
        } else {
            r.transcript.push_str(&format!("$ {}\n", l.command));
        }
        r.transcript.push_str(&o.output);
        if l.expect_error == o.ok {
            r.unexpected += 1;
            if o.ok {
                r.transcript
                    .push_str("FAILED: the line says # expect error, but the command succeeded\n");
            }
        }
        if let Some(ok) = o.expectation {
            r.expectations += 1;
            if !ok {
                r.failed_expectations += 1;
            }
        }
        if !o.ok {
            r.failed_commands += 1;
        }
        out(&r.transcript[from..]);
    }
    r
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_command_s_output_is_handed_over_as_soon_as_it_ran() {
        let lines = parse("sim time\nkubectl frob # expect error\nsim time\n", "t.sh").unwrap();
        let mut c = Cluster::with_default_nodes(1);
        let mut chunks = Vec::new();
        let r = run_lines_streaming(&mut c, &lines, &crate::command::NoFiles, &mut |s| {
            chunks.push(s.to_string())
        });
        assert_eq!(chunks.len(), 3);
        assert!(chunks[0].starts_with("$ sim time\n"));
        assert!(chunks[1].starts_with("$ kubectl frob"));
        assert_eq!(chunks.concat(), r.transcript);
    }

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
    fn a_trailing_expect_error_comment_marks_a_line_meant_to_fail() {
        let s = "kubectl frob # expect error\nkubectl get pods -o 'jsonpath={.a}#x' # just a note\nkubectl apply -f - <<EOF # expect error\nkind: Pod\nEOF\n";
        let lines = parse(s, "t.sh").unwrap();
        assert_eq!(lines[0].command, "kubectl frob");
        assert!(lines[0].expect_error);
        assert_eq!(lines[1].command, "kubectl get pods -o 'jsonpath={.a}#x'");
        assert!(!lines[1].expect_error);
        assert_eq!(lines[2].command, "kubectl apply -f -");
        assert_eq!(lines[2].stdin.as_deref(), Some("kind: Pod\n"));
        assert!(lines[2].expect_error);
    }

    #[test]
    fn a_failed_command_or_a_marked_line_that_succeeds_fails_the_run() {
        let mut c = crate::cluster::Cluster::with_default_nodes(1);
        let files = crate::command::NoFiles;
        let ok = parse("kubectl frob # expect error\nsim time\n", "t.sh").unwrap();
        let r = run_lines(&mut c, &ok, &files);
        assert!(r.passed(), "{}", r.transcript);
        assert!(r
            .transcript
            .starts_with("$ kubectl frob   # expect error\nerror: unknown command"));
        let bad = parse("kubectl frob\n", "t.sh").unwrap();
        assert!(!run_lines(&mut c, &bad, &files).passed());
        let bad = parse("sim time # expect error\n", "t.sh").unwrap();
        let r = run_lines(&mut c, &bad, &files);
        assert!(!r.passed());
        assert!(
            r.transcript
                .ends_with("FAILED: the line says # expect error, but the command succeeded\n"),
            "{}",
            r.transcript
        );
    }

    #[test]
    fn an_unterminated_heredoc_names_its_line() {
        let e = parse("sim time\nkubectl apply -f - <<'END'\nkind: Pod\n", "s.sh").unwrap_err();
        assert_eq!(e, "s.sh:2: unterminated heredoc (expected a line \"END\")");
    }
}
