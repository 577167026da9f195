//! The message API's contract, as the course's gateway states it (its S2 `/v1`):
//! - a message's text is not empty and at most 6 bytes of UTF-8 (`你好` is 6 bytes,
//!   `你好啊` is 9: the pending "6→9 B" review is about exactly that);
//! - the raw HTTP request body is at most 4096 bytes, refused before it is parsed;
//! - a target the sender shares no conversation with is answered 404, the same answer
//!   as a target that does not exist: the API does not tell a stranger who is there;
//! - an id this store already holds is refused with 409;
//! - success is 200 `accepted_in_memory`: this process's memory took it, nothing more.
//!   With a database behind the application (the proposed S3 `/v2`), success is
//!   `stored_in_teaching_db` with the device's sequence number.
//!
//! The checks run in that order, in the Pod that received the request. The status
//! codes of the two size limits are the usual ones (400, 413): the course names the
//! limits, not their codes.

/// The most bytes of UTF-8 a message's text may have.
pub const MAX_TEXT_BYTES: usize = 6;

/// The most bytes a request's raw body may have.
pub const MAX_REQUEST_BYTES: usize = 4096;

/// The user the traffic and `sim message` send as unless told: A, who shares a
/// conversation with every device.
pub const SENDER: &str = "a";

/// Why the application refused a message before its store saw it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// 413: the raw body is over [`MAX_REQUEST_BYTES`].
    TooLarge,
    /// 400: the text is empty or over [`MAX_TEXT_BYTES`].
    InvalidText,
    /// 404: no such target, or one the sender shares no conversation with.
    NotFound,
}

impl Refusal {
    /// The HTTP status line.
    pub fn status(self) -> &'static str {
        match self {
            Refusal::TooLarge => "413 Payload Too Large",
            Refusal::InvalidText => "400 Bad Request",
            Refusal::NotFound => "404 Not Found",
        }
    }

    /// The response body.
    pub fn body(self) -> &'static str {
        match self {
            Refusal::TooLarge => r#"{"error":"request_too_large"}"#,
            Refusal::InvalidText => r#"{"error":"invalid_text"}"#,
            Refusal::NotFound => r#"{"error":"not_found"}"#,
        }
    }
}

/// The raw body a client sends for message `id` to `to` with `text`.
pub fn request_body(id: &str, to: &str, text: &str) -> String {
    serde_json::json!({ "id": id, "to": to, "text": text }).to_string()
}

/// The contract's checks before the store: `raw` is the request body as sent,
/// `member` whether the target is a device the sender shares a conversation with.
pub fn check(raw: &str, text: &str, member: bool) -> Result<(), Refusal> {
    if raw.len() > MAX_REQUEST_BYTES {
        return Err(Refusal::TooLarge);
    }
    if text.is_empty() || text.len() > MAX_TEXT_BYTES {
        return Err(Refusal::InvalidText);
    }
    if !member {
        return Err(Refusal::NotFound);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn six_bytes_of_utf8_pass_and_nine_do_not() {
        let ok = |t: &str| check(&request_body("m-1", "device-1", t), t, true);
        assert_eq!(ok("hello!"), Ok(()));
        assert_eq!(ok("你好"), Ok(()), "two characters, six bytes");
        assert_eq!(ok("你好啊"), Err(Refusal::InvalidText), "nine bytes");
        assert_eq!(ok(""), Err(Refusal::InvalidText));
    }

    #[test]
    fn an_oversized_request_is_refused_before_its_text_or_target_is_read() {
        let text = "x".repeat(5000);
        let raw = request_body("m-1", "nobody", &text);
        assert_eq!(check(&raw, &text, false), Err(Refusal::TooLarge));
    }

    #[test]
    fn a_stranger_and_a_missing_target_get_the_same_answer() {
        let raw = request_body("m-1", "device-1", "hi");
        assert_eq!(check(&raw, "hi", false), Err(Refusal::NotFound));
        assert_eq!(Refusal::NotFound.body(), r#"{"error":"not_found"}"#);
    }
}
