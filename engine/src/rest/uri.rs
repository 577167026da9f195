//! A request target read as the server reads a request line: the path and the query's
//! parameters percent-decoded (`+` is a space in the query only). The HTTP layer of
//! `serve` and the console's `kubectl get --raw` both read targets this way.

use super::HttpRequest;

/// Decode `%XX` escapes (and `+` as a space in a query); a bad escape stays as it is.
pub fn percent_decode(s: &str, plus_is_space: bool) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'%' if i + 2 < b.len() => {
                let hex = std::str::from_utf8(&b[i + 1..i + 3]).ok();
                match hex.and_then(|h| u8::from_str_radix(h, 16).ok()) {
                    Some(v) => {
                        out.push(v);
                        i += 3;
                        continue;
                    }
                    None => out.push(b'%'),
                }
            }
            b'+' if plus_is_space => out.push(b' '),
            c => out.push(c),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// A query string's parameters, in order, each name and value percent-decoded.
pub fn split_query(query: &str) -> Vec<(String, String)> {
    query
        .split('&')
        .filter(|p| !p.is_empty())
        .map(|p| {
            let (k, v) = p.split_once('=').unwrap_or((p, ""));
            (percent_decode(k, true), percent_decode(v, true))
        })
        .collect()
}

impl HttpRequest {
    /// A GET of `target` (a path, with a query after `?` or not) with `headers` (names
    /// in lower case).
    pub fn get(target: &str, headers: Vec<(String, String)>) -> Self {
        let (path, query) = target.split_once('?').unwrap_or((target, ""));
        HttpRequest {
            method: "GET".into(),
            path: percent_decode(path, false),
            query: split_query(query),
            headers,
            body: Vec::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_are_decoded_and_a_bad_one_is_kept_as_it_is() {
        assert_eq!(percent_decode("app%3Dweb%2Ctier+x", true), "app=web,tier x");
        assert_eq!(percent_decode("a+b%2", false), "a+b%2");
        assert_eq!(percent_decode("%zz%", true), "%zz%");
        assert_eq!(percent_decode("%41%4", true), "A%4");
    }

    #[test]
    fn a_target_splits_into_its_decoded_path_and_parameters() {
        let r = HttpRequest::get(
            "/api/v1/namespaces/a%2Db/pods?limit=1&labelSelector=app%3Dweb&watch",
            vec![],
        );
        assert_eq!(r.path, "/api/v1/namespaces/a-b/pods");
        assert_eq!(
            r.query,
            [
                ("limit".to_string(), "1".to_string()),
                ("labelSelector".into(), "app=web".into()),
                ("watch".into(), String::new()),
            ]
        );
    }
}
