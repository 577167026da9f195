//! `kubeplay-cli`: the command language on a terminal.
//!
//! ```text
//! kubeplay-cli run FILE|- [--seed N]   run a script; prints `$ command` then its output
//! kubeplay-cli [--seed N]              interactive prompt (on a terminal), ↑/↓ history
//! kubeplay-cli scenario ID|FILE [--lang zh]   play a course scenario: every step, then
//!                                      the clock until its goals are reached
//! kubeplay-cli scenario --list         the built-in scenarios
//! kubeplay-cli verify RECORD|-          replay a lesson's completion record and
//!                                      confirm or refute each goal it claims
//! kubeplay-cli serve [--port 6443] [--kubeconfig FILE] [--scenario ID|FILE] [--realtime]
//!                   [--allow-origin ORIGIN]... [--max-connections N]
//!                                      serve the Kubernetes API on https://127.0.0.1
//!                                      for real kubectl and other clients (`serve`)
//! kubeplay-cli sim WORDS…              send `sim WORDS…` to that server (also run
//!                                      as the kubectl plugin `kubectl-sim`)
//! ```
//! Exit status of `verify`: 0 when the record is genuine and every goal was met, 1 when
//! it is refused or incomplete, 2 when the file cannot be read.
//! Exit status of `scenario`: 0 when every goal was reached (and every step printed what
//! it should), 1 when not, 2 when the scenario cannot be read or set up.
//! Exit status of `run`: 0 when every command succeeded (or failed where its line says
//! `# expect error`) and every `sim expect` held; 1 otherwise — the script still runs
//! to its end and prints everything; 2 when the script cannot be read or parsed (the
//! message names file:line).

use kubeplay_cli::{client, serve};
use kubeplay_engine::cluster::Cluster;
use kubeplay_engine::command::{self, script, Files};
use std::io::{BufRead, IsTerminal, Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;

/// `-f FILE` reads from the disk, relative to the script's folder.
struct DiskFiles {
    base: PathBuf,
}

impl Files for DiskFiles {
    fn read(&self, path: &str) -> Result<String, String> {
        let p = self.base.join(path);
        std::fs::read_to_string(&p).map_err(|_| format!("the path \"{path}\" does not exist"))
    }
}

const USAGE: &str = "usage: kubeplay-cli run FILE|- [--seed N]\n       kubeplay-cli scenario ID|FILE [--lang en|zh] | scenario --list\n       kubeplay-cli verify RECORD|-\n       kubeplay-cli serve [--port 6443] [--kubeconfig FILE] [--scenario ID|FILE] [--seed N] [--realtime] [--allow-origin ORIGIN]... [--max-connections N]\n       kubeplay-cli sim WORDS... [--kubeconfig FILE]\n       kubeplay-cli [--seed N]        (interactive, on a terminal)";

fn main() -> ExitCode {
    // `sim controller` runs the learner's JavaScript here, on every thread.
    kubeplay_engine::controllers::script::runner::install_global(kubeplay_sandbox::run_json);
    // Installed as `kubectl-sim`, kubectl runs it for `kubectl sim …`.
    let invoked = std::env::args().next().unwrap_or_default();
    let args: Vec<String> = std::env::args().skip(1).collect();
    if std::path::Path::new(&invoked)
        .file_name()
        .is_some_and(|n| n == "kubectl-sim")
    {
        return client::sim_client(&args);
    }
    if args.first().map(String::as_str) == Some("sim") {
        return client::sim_client(&args[1..]);
    }
    let mut seed: Option<u64> = None;
    let mut rest = Vec::new();
    let mut i = 0;
    while i < args.len() {
        if args[i] == "--seed" || args[i].starts_with("--seed=") {
            let v = match args[i].split_once('=') {
                Some((_, v)) => v.to_string(),
                None => {
                    i += 1;
                    args.get(i).cloned().unwrap_or_default()
                }
            };
            match v.parse() {
                Ok(s) => seed = Some(s),
                Err(_) => {
                    eprintln!("kubeplay-cli: --seed takes a whole number");
                    return ExitCode::from(2);
                }
            }
        } else if args[i] == "-h" || args[i] == "--help" {
            println!("{USAGE}");
            return ExitCode::SUCCESS;
        } else {
            rest.push(args[i].clone());
        }
        i += 1;
    }
    match rest.first().map(String::as_str) {
        Some("run") => match rest.get(1) {
            Some(file) => run_file(file, seed),
            None => {
                eprintln!("{USAGE}");
                ExitCode::from(2)
            }
        },
        Some("scenario") => scenario(&rest[1..]),
        Some("verify") => verify(rest.get(1).map(String::as_str)),
        Some("serve") => serve::serve(&rest[1..], seed),
        None if std::io::stdin().is_terminal() => repl(seed.unwrap_or(1)),
        None => run_file("-", seed),
        Some(other) => {
            eprintln!("kubeplay-cli: unknown command \"{other}\"\n{USAGE}");
            ExitCode::from(2)
        }
    }
}

/// `kubeplay-cli verify RECORD`: replay a completion record and print the verdict.
fn verify(path: Option<&str>) -> ExitCode {
    let Some(path) = path else {
        eprintln!("{USAGE}");
        return ExitCode::from(2);
    };
    let text = if path == "-" {
        let mut s = String::new();
        std::io::stdin().read_to_string(&mut s).map(|_| s)
    } else {
        std::fs::read_to_string(path)
    };
    let text = match text {
        Ok(t) => t,
        Err(e) => {
            eprintln!("kubeplay-cli: {path}: {e}");
            return ExitCode::from(2);
        }
    };
    let v = kubeplay_engine::record::verify(&text);
    print!("{}", v.report());
    if v.passed() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

fn scenario(args: &[String]) -> ExitCode {
    use kubeplay_engine::scenario;
    let mut lang = "en".to_string();
    let mut target = None;
    let mut i = 0;
    while i < args.len() {
        match args[i].as_str() {
            "--list" => {
                // A reader that stops early (`| head`) closes the pipe: stop quietly.
                let mut out = std::io::stdout().lock();
                for (id, yaml) in scenario::BUILTIN {
                    let line = match scenario::parse(yaml, id) {
                        Ok(s) => writeln!(out, "{id}\t{}", s.title.en),
                        Err(e) => writeln!(out, "{id}\t{e}"),
                    };
                    if line.is_err() {
                        break;
                    }
                }
                return ExitCode::SUCCESS;
            }
            "--lang" => {
                i += 1;
                lang = args.get(i).cloned().unwrap_or_default();
            }
            a if a.starts_with("--lang=") => lang = a["--lang=".len()..].to_string(),
            a => target = Some(a.to_string()),
        }
        i += 1;
    }
    let Some(target) = target else {
        eprintln!("{USAGE}");
        return ExitCode::from(2);
    };
    let parsed = match scenario::builtin(&target) {
        Some(r) => r,
        None => match std::fs::read_to_string(&target) {
            Ok(text) => scenario::parse(&text, &target),
            Err(e) => Err(format!(
                "kubeplay-cli: {target}: not a built-in scenario and not a file ({e})"
            )),
        },
    };
    let report = parsed.and_then(|s| scenario::play(&s, &lang));
    match report {
        Ok(r) => {
            print!("{}", r.transcript);
            if r.passed() {
                ExitCode::SUCCESS
            } else {
                eprintln!("kubeplay-cli: scenario {target}: not every goal was reached");
                ExitCode::from(1)
            }
        }
        Err(e) => {
            eprintln!("{e}");
            ExitCode::from(2)
        }
    }
}

fn run_file(file: &str, seed: Option<u64>) -> ExitCode {
    let (text, base, source) = if file == "-" {
        let mut s = String::new();
        if std::io::stdin().read_to_string(&mut s).is_err() {
            eprintln!("kubeplay-cli: cannot read standard input");
            return ExitCode::from(2);
        }
        (s, PathBuf::from("."), "<stdin>".to_string())
    } else {
        match std::fs::read_to_string(file) {
            Ok(s) => {
                let base = PathBuf::from(file)
                    .parent()
                    .map(PathBuf::from)
                    .unwrap_or_else(|| PathBuf::from("."));
                (s, base, file.to_string())
            }
            Err(e) => {
                eprintln!("kubeplay-cli: {file}: {e}");
                return ExitCode::from(2);
            }
        }
    };
    let lines = match script::parse(&text, &source) {
        Ok(l) => l,
        Err(e) => {
            eprintln!("kubeplay-cli: {e}");
            return ExitCode::from(2);
        }
    };
    let mut cluster = Cluster::standard(seed.unwrap_or(1));
    let files = DiskFiles { base };
    // Each command's output as soon as it ran: a crash later loses nothing printed.
    let r = script::run_lines_streaming(&mut cluster, &lines, &files, &mut |chunk| {
        print!("{chunk}");
        let _ = std::io::stdout().flush();
    });
    if r.passed() {
        return ExitCode::SUCCESS;
    }
    if r.failed_expectations > 0 {
        eprintln!(
            "kubeplay-cli: {} of {} expectations failed",
            r.failed_expectations, r.expectations
        );
    }
    // Expectations are commands too; name the others apart.
    let others = r.unexpected.saturating_sub(r.failed_expectations);
    if others > 0 {
        eprintln!(
            "kubeplay-cli: {others} command(s) did not do what the script says (an error without `{}`, or none with it)",
            script::EXPECT_ERROR
        );
    }
    ExitCode::from(1)
}

/// Terminal raw mode through `stty`, restored on drop.
struct RawMode(bool);

impl RawMode {
    fn enter() -> Self {
        let ok = std::process::Command::new("stty")
            .args(["-icanon", "-echo", "min", "1"])
            .stdin(std::process::Stdio::inherit())
            .status()
            .is_ok_and(|s| s.success());
        RawMode(ok)
    }
}

impl Drop for RawMode {
    fn drop(&mut self) {
        if self.0 {
            let _ = std::process::Command::new("stty")
                .arg("sane")
                .stdin(std::process::Stdio::inherit())
                .status();
        }
    }
}

/// Read one line with ↑/↓ history and backspace; None at end of input.
fn read_line(prompt: &str, history: &[String], raw: bool) -> Option<String> {
    let mut out = std::io::stdout();
    let _ = write!(out, "{prompt}");
    let _ = out.flush();
    if !raw {
        let mut s = String::new();
        return match std::io::stdin().lock().read_line(&mut s) {
            Ok(0) | Err(_) => None,
            Ok(_) => Some(s.trim_end_matches(['\n', '\r']).to_string()),
        };
    }
    let mut buf = String::new();
    let mut pos = history.len();
    let mut stdin = std::io::stdin().lock();
    let mut byte = [0u8; 1];
    let redraw = |buf: &str, out: &mut std::io::Stdout| {
        let _ = write!(out, "\r\x1b[2K{prompt}{buf}");
        let _ = out.flush();
    };
    loop {
        if stdin.read(&mut byte).ok()? == 0 {
            return None;
        }
        match byte[0] {
            b'\n' | b'\r' => {
                let _ = writeln!(out);
                return Some(buf);
            }
            4 if buf.is_empty() => return None,
            3 => {
                buf.clear();
                let _ = writeln!(out, "^C");
                let _ = write!(out, "{prompt}");
                let _ = out.flush();
            }
            127 | 8 => {
                buf.pop();
                redraw(&buf, &mut out);
            }
            27 => {
                let mut seq = [0u8; 2];
                if stdin.read_exact(&mut seq).is_err() {
                    continue;
                }
                match seq {
                    [b'[', b'A'] if pos > 0 => {
                        pos -= 1;
                        buf = history[pos].clone();
                    }
                    [b'[', b'B'] if pos < history.len() => {
                        pos += 1;
                        buf = history.get(pos).cloned().unwrap_or_default();
                    }
                    _ => {}
                }
                redraw(&buf, &mut out);
            }
            b if b >= 0x20 => {
                // Collect a whole UTF-8 sequence before showing it.
                let mut bytes = vec![b];
                let extra = match b {
                    0xC0..=0xDF => 1,
                    0xE0..=0xEF => 2,
                    0xF0..=0xF7 => 3,
                    _ => 0,
                };
                for _ in 0..extra {
                    if stdin.read(&mut byte).ok()? == 0 {
                        return None;
                    }
                    bytes.push(byte[0]);
                }
                buf.push_str(&String::from_utf8_lossy(&bytes));
                redraw(&buf, &mut out);
            }
            _ => {}
        }
    }
}

fn repl(seed: u64) -> ExitCode {
    println!("kubeplay — a simulated Kubernetes v1.33 cluster (3 nodes, seed {seed}). Type kubectl or sim commands; exit to leave.");
    let mut cluster = Cluster::standard(seed);
    let files = DiskFiles {
        base: PathBuf::from("."),
    };
    let raw = RawMode::enter();
    let mut history: Vec<String> = Vec::new();
    while let Some(line) = read_line("kubeplay> ", &history, raw.0) {
        let t = line.trim();
        if t == "exit" || t == "quit" {
            break;
        }
        if t.is_empty() {
            continue;
        }
        history.push(t.to_string());
        let o = command::run(&mut cluster, t, None, &files);
        print!("{}", o.output.replace('\n', "\r\n"));
        let _ = std::io::stdout().flush();
    }
    drop(raw);
    ExitCode::SUCCESS
}
