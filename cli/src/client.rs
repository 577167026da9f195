//! A small blocking HTTPS client for kubeplay's own endpoints: `kubeplay-cli sim …`
//! (also run as the kubectl plugin `kubectl-sim`) sends its words to a running `serve`
//! with the kubeconfig's server, CA and token; tests read `/kubeplay/v1/activity` with
//! it. One request per connection (`Connection: close`).

use crate::kubeconfig::{self, Endpoint};
use kubeplay_engine::rest::SIM_PATH;
use std::io::{Read, Write};
use std::net::TcpStream;
use std::process::ExitCode;

/// An answer: status and body.
#[derive(Clone, Debug, PartialEq)]
pub struct Answer {
    /// The status code.
    pub status: u16,
    /// The body (de-chunked).
    pub body: Vec<u8>,
}

/// Send one request to `ep` and read the whole answer.
pub fn request(
    ep: &Endpoint,
    method: &str,
    path: &str,
    content_type: Option<&str>,
    body: &[u8],
) -> Result<Answer, String> {
    let config = crate::tls::client_config(&ep.ca_pem)?;
    let name = rustls::pki_types::ServerName::try_from(ep.host.clone())
        .map_err(|e| format!("{}: {e}", ep.host))?;
    let conn = rustls::ClientConnection::new(config, name).map_err(|e| e.to_string())?;
    let tcp = TcpStream::connect(&ep.authority).map_err(|e| e.to_string())?;
    let _ = tcp.set_nodelay(true);
    let mut tls = rustls::StreamOwned::new(conn, tcp);
    let mut head = format!(
        "{method} {path} HTTP/1.1\r\nHost: {}\r\nUser-Agent: kubectl-sim\r\nAccept: application/json, */*\r\nContent-Length: {}\r\nConnection: close\r\n",
        ep.authority,
        body.len()
    );
    if let Some(ct) = content_type {
        head.push_str(&format!("Content-Type: {ct}\r\n"));
    }
    if let Some(t) = &ep.token {
        head.push_str(&format!("Authorization: Bearer {t}\r\n"));
    }
    head.push_str("\r\n");
    let mut out = head.into_bytes();
    out.extend_from_slice(body);
    tls.write_all(&out).map_err(|e| e.to_string())?;
    tls.flush().map_err(|e| e.to_string())?;
    let mut raw = Vec::new();
    if let Err(e) = tls.read_to_end(&mut raw) {
        // A peer that closes without TLS's close_notify after a whole answer.
        if raw.is_empty() || e.kind() != std::io::ErrorKind::UnexpectedEof {
            return Err(e.to_string());
        }
    }
    parse_answer(&raw)
}

/// Parse a whole HTTP/1.1 answer read to its end.
fn parse_answer(raw: &[u8]) -> Result<Answer, String> {
    let split = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .ok_or("the server's answer has no end of headers")?;
    let head = String::from_utf8_lossy(&raw[..split]);
    let rest = &raw[split + 4..];
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .ok_or("the server's answer has no status")?;
    let header = |name: &str| {
        head.lines().skip(1).find_map(|l| {
            let (k, v) = l.split_once(':')?;
            k.trim()
                .eq_ignore_ascii_case(name)
                .then(|| v.trim().to_string())
        })
    };
    let chunked = header("transfer-encoding").is_some_and(|t| t.eq_ignore_ascii_case("chunked"));
    let body = if chunked {
        dechunk(rest)?
    } else if let Some(n) = header("content-length").and_then(|n| n.parse::<usize>().ok()) {
        rest.get(..n)
            .ok_or("the server's answer ended early")?
            .to_vec()
    } else {
        rest.to_vec()
    };
    Ok(Answer { status, body })
}

fn dechunk(mut rest: &[u8]) -> Result<Vec<u8>, String> {
    let mut body = Vec::new();
    loop {
        let eol = rest
            .windows(2)
            .position(|w| w == b"\r\n")
            .ok_or("a chunk without its size line")?;
        let size = String::from_utf8_lossy(&rest[..eol]);
        let n = usize::from_str_radix(size.split(';').next().unwrap_or("").trim(), 16)
            .map_err(|_| format!("a bad chunk size {size:?}"))?;
        rest = &rest[eol + 2..];
        if n == 0 {
            return Ok(body);
        }
        body.extend_from_slice(rest.get(..n).ok_or("a chunk ended early")?);
        rest = rest.get(n + 2..).unwrap_or(&[]);
    }
}

/// The file a `sim controller run` or `sim webhook run` names with `-f` (stdin for
/// `-f -`), read, and the word replaced by `-`.
fn code_file(words: &mut [String]) -> Result<Option<String>, String> {
    let runs_code = matches!(
        (
            words.first().map(String::as_str),
            words.get(1).map(String::as_str)
        ),
        (Some("controller" | "webhook"), Some("run"))
    );
    if !runs_code {
        return Ok(None);
    }
    for i in 0..words.len() {
        let path = match words[i].as_str() {
            "-f" | "--filename" => match words.get(i + 1) {
                Some(p) => (i + 1, p.clone()),
                None => continue,
            },
            w => match w
                .strip_prefix("--filename=")
                .or_else(|| w.strip_prefix("-f="))
            {
                Some(p) => (i, p.to_string()),
                None => continue,
            },
        };
        let (at, path) = path;
        let code = if path == "-" {
            let mut s = String::new();
            std::io::stdin()
                .read_to_string(&mut s)
                .map_err(|e| format!("reading stdin: {e}"))?;
            s
        } else {
            std::fs::read_to_string(&path).map_err(|e| format!("open {path}: {e}"))?
        };
        words[at] = if at == i {
            "--filename=-".into()
        } else {
            "-".into()
        };
        return Ok(Some(code));
    }
    Ok(None)
}

/// `kubeplay-cli sim WORDS…` (or `kubectl sim WORDS…`): send the words to the server
/// and print its answer. Exit 0 when the command succeeded, 1 when it failed, 2 when
/// the server cannot be reached.
pub fn sim_client(args: &[String]) -> ExitCode {
    let mut words = Vec::new();
    let mut explicit = None;
    let mut i = 0;
    while i < args.len() {
        if args[i] == "--kubeconfig" {
            i += 1;
            explicit = args.get(i).cloned();
        } else if let Some(k) = args[i].strip_prefix("--kubeconfig=") {
            explicit = Some(k.to_string());
        } else {
            words.push(args[i].clone());
        }
        i += 1;
    }
    let path = kubeconfig::path(explicit.as_deref());
    let ep = match kubeconfig::endpoint(&path) {
        Ok(e) => e,
        Err(e) => {
            eprintln!("kubectl-sim: {e}");
            return ExitCode::from(2);
        }
    };
    // The code of `sim controller run -f FILE` and `sim webhook run -f FILE` is read
    // here and sent with the line, which then reads it from `-f -`: the server reads
    // no files of its own.
    let stdin = match code_file(&mut words) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(1);
        }
    };
    let mut body = serde_json::json!({"command": words.join(" ")});
    if let Some(code) = stdin {
        body["stdin"] = serde_json::Value::String(code);
    }
    let body = body.to_string();
    let result = request(
        &ep,
        "POST",
        SIM_PATH,
        Some("application/json"),
        body.as_bytes(),
    );
    match result {
        Ok(a) => {
            let text = String::from_utf8_lossy(&a.body);
            let text = match a.status {
                200 | 400 if !text.starts_with('{') => text.into_owned(),
                // A refusal before the command ran (401, 403, 415…): its Status message.
                _ => serde_json::from_slice::<serde_json::Value>(&a.body)
                    .ok()
                    .and_then(|v| v["message"].as_str().map(|m| format!("error: {m}\n")))
                    .unwrap_or_else(|| text.into_owned()),
            };
            print!("{text}");
            if a.status == 200 {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(1)
            }
        }
        Err(e) => {
            eprintln!("kubectl-sim: cannot reach https://{}: {e}", ep.authority);
            ExitCode::from(2)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_answer_is_read_by_its_length_or_its_chunks() {
        let a = parse_answer(b"HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\nabcdef").unwrap();
        assert_eq!((a.status, a.body.as_slice()), (200, &b"abc"[..]));
        let a = parse_answer(
            b"HTTP/1.1 400 Bad Request\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2;x\r\nde\r\n0\r\n\r\n",
        )
        .unwrap();
        assert_eq!((a.status, a.body.as_slice()), (400, &b"abcde"[..]));
        assert!(parse_answer(b"HTTP/1.1 200 OK\r\n").is_err());
        assert!(
            parse_answer(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n").is_err()
        );
    }
}
