//! One decoder from a JSON value into any typed object, tracking the field path of an
//! error: `spec.template.spec.containers[0].image: invalid type: integer `5`, expected
//! a string`.
//!
//! Why our own: the typed decoders are generic, so each way of reaching them compiles
//! every API type's visitor again. Reaching them through `serde_json::from_value` and,
//! for the path, through a path-tracking wrapper around that deserializer compiled
//! each type's visitors two or three times over (the wrapper alone was 8.6% of the
//! page's WebAssembly). This deserializer is the value reader and the path tracker in
//! one, and every typed decode goes through it.
//!
//! It reads a value exactly as `serde_json`'s own value deserializer does (the same
//! visitor calls for each JSON type, the same trailing-element checks), and its errors
//! are `serde_json`'s, so their words are unchanged. The path is built as an error
//! unwinds: each map entry, array element and enum variant it passes out of adds its
//! segment, written as `serde_path_to_error` writes a path (`a.b[2].c`, `.` for the
//! root).

use serde::de::{
    self, DeserializeOwned, DeserializeSeed, EnumAccess, MapAccess, SeqAccess, Unexpected,
    VariantAccess, Visitor,
};
use serde_json::{Map, Value};
use std::fmt;

/// Decode `value` into a `T`; the error is (field path, message).
pub fn from_value<T: DeserializeOwned>(value: Value) -> Result<T, (String, String)> {
    T::deserialize(ValueDe(value)).map_err(|e| (e.path(), e.inner.to_string()))
}

/// One step of an error's path.
#[derive(Debug)]
enum Segment {
    /// An array element, by index.
    Seq(usize),
    /// A map entry or struct field, by key.
    Map(String),
    /// An enum's variant.
    Enum(String),
}

/// A decoding error: `serde_json`'s, with where it happened.
#[derive(Debug)]
pub struct Error {
    /// Innermost segment first: pushed while the error unwinds.
    rev_path: Vec<Segment>,
    inner: serde_json::Error,
}

impl Error {
    fn at(mut self, seg: Segment) -> Self {
        self.rev_path.push(seg);
        self
    }

    /// The path, as `serde_path_to_error` displays one.
    fn path(&self) -> String {
        if self.rev_path.is_empty() {
            return ".".to_string();
        }
        let mut out = String::new();
        for (i, seg) in self.rev_path.iter().rev().enumerate() {
            match seg {
                Segment::Seq(n) => out.push_str(&format!("[{n}]")),
                Segment::Map(k) | Segment::Enum(k) => {
                    if i > 0 {
                        out.push('.');
                    }
                    out.push_str(k);
                }
            }
        }
        out
    }
}

impl From<serde_json::Error> for Error {
    fn from(inner: serde_json::Error) -> Self {
        Error {
            rev_path: Vec::new(),
            inner,
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.inner, f)
    }
}

impl std::error::Error for Error {}

// Every constructor is serde_json's own, so the words match its value deserializer's
// (`null` for a unit, its float formatting).
impl de::Error for Error {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        <serde_json::Error as de::Error>::custom(msg).into()
    }
    fn invalid_type(unexp: Unexpected, exp: &dyn de::Expected) -> Self {
        <serde_json::Error as de::Error>::invalid_type(unexp, exp).into()
    }
    fn invalid_value(unexp: Unexpected, exp: &dyn de::Expected) -> Self {
        <serde_json::Error as de::Error>::invalid_value(unexp, exp).into()
    }
    fn invalid_length(len: usize, exp: &dyn de::Expected) -> Self {
        <serde_json::Error as de::Error>::invalid_length(len, exp).into()
    }
    fn unknown_variant(variant: &str, expected: &'static [&'static str]) -> Self {
        <serde_json::Error as de::Error>::unknown_variant(variant, expected).into()
    }
    fn unknown_field(field: &str, expected: &'static [&'static str]) -> Self {
        <serde_json::Error as de::Error>::unknown_field(field, expected).into()
    }
    fn missing_field(field: &'static str) -> Self {
        <serde_json::Error as de::Error>::missing_field(field).into()
    }
    fn duplicate_field(field: &'static str) -> Self {
        <serde_json::Error as de::Error>::duplicate_field(field).into()
    }
}

/// What a JSON value is, in an error's words.
fn unexpected(v: &Value) -> Unexpected<'_> {
    match v {
        Value::Null => Unexpected::Unit,
        Value::Bool(b) => Unexpected::Bool(*b),
        Value::Number(n) => match (n.as_u64(), n.as_i64()) {
            (Some(u), _) => Unexpected::Unsigned(u),
            (None, Some(i)) => Unexpected::Signed(i),
            _ => Unexpected::Float(n.as_f64().unwrap_or(f64::NAN)),
        },
        Value::String(s) => Unexpected::Str(s),
        Value::Array(_) => Unexpected::Seq,
        Value::Object(_) => Unexpected::Map,
    }
}

/// The deserializer of one owned JSON value.
struct ValueDe(Value);

fn visit_array<'de, V: Visitor<'de>>(a: Vec<Value>, visitor: V) -> Result<V::Value, Error> {
    let len = a.len();
    let mut seq = Seq {
        iter: a.into_iter(),
        index: 0,
    };
    let out = visitor.visit_seq(&mut seq)?;
    if seq.iter.len() == 0 {
        Ok(out)
    } else {
        Err(de::Error::invalid_length(len, &"fewer elements in array"))
    }
}

fn visit_object<'de, V: Visitor<'de>>(
    m: Map<String, Value>,
    visitor: V,
) -> Result<V::Value, Error> {
    let len = m.len();
    let mut map = Entries {
        iter: m.into_iter(),
        value: None,
    };
    let out = visitor.visit_map(&mut map)?;
    if map.iter.len() == 0 {
        Ok(out)
    } else {
        Err(de::Error::invalid_length(len, &"fewer elements in map"))
    }
}

impl<'de> de::Deserializer<'de> for ValueDe {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.0 {
            Value::Null => visitor.visit_unit(),
            Value::Bool(b) => visitor.visit_bool(b),
            Value::Number(n) => match (n.as_u64(), n.as_i64()) {
                (Some(u), _) => visitor.visit_u64(u),
                (None, Some(i)) => visitor.visit_i64(i),
                _ => visitor.visit_f64(n.as_f64().unwrap_or(f64::NAN)),
            },
            Value::String(s) => visitor.visit_string(s),
            Value::Array(a) => visit_array(a, visitor),
            Value::Object(m) => visit_object(m, visitor),
        }
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.0 {
            Value::Null => visitor.visit_none(),
            _ => visitor.visit_some(self),
        }
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        let (variant, value) = match self.0 {
            Value::Object(m) => {
                let mut iter = m.into_iter();
                let (variant, value) = match iter.next() {
                    Some(v) => v,
                    None => {
                        return Err(de::Error::invalid_value(
                            Unexpected::Map,
                            &"map with a single key",
                        ))
                    }
                };
                if iter.next().is_some() {
                    return Err(de::Error::invalid_value(
                        Unexpected::Map,
                        &"map with a single key",
                    ));
                }
                (variant, Some(value))
            }
            Value::String(variant) => (variant, None),
            other => {
                return Err(de::Error::invalid_type(
                    unexpected(&other),
                    &"string or map",
                ))
            }
        };
        visitor.visit_enum(Variant { variant, value })
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Error> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        drop(self);
        visitor.visit_unit()
    }

    // Every other request reads the value as what it is: serde_json's value
    // deserializer answers each of them with the same visitor call or the same error.
    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf unit unit_struct seq tuple tuple_struct map struct identifier
    }
}

/// An array's elements, each decoded in turn.
struct Seq {
    iter: std::vec::IntoIter<Value>,
    index: usize,
}

impl<'de> SeqAccess<'de> for Seq {
    type Error = Error;

    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, Error> {
        let Some(v) = self.iter.next() else {
            return Ok(None);
        };
        let index = self.index;
        self.index += 1;
        seed.deserialize(ValueDe(v))
            .map(Some)
            .map_err(|e| e.at(Segment::Seq(index)))
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.iter.len())
    }
}

/// An object's entries: a key, then its value.
struct Entries {
    iter: serde_json::map::IntoIter,
    value: Option<(String, Value)>,
}

impl<'de> MapAccess<'de> for Entries {
    type Error = Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, Error> {
        let Some((k, v)) = self.iter.next() else {
            return Ok(None);
        };
        let key = seed.deserialize(ValueDe(Value::String(k.clone())))?;
        self.value = Some((k, v));
        Ok(Some(key))
    }

    fn next_value_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<T::Value, Error> {
        let Some((k, v)) = self.value.take() else {
            return Err(de::Error::custom("value is missing"));
        };
        seed.deserialize(ValueDe(v))
            .map_err(|e| e.at(Segment::Map(k)))
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.iter.len())
    }
}

/// An enum's variant name and, for a variant with data, its value.
struct Variant {
    variant: String,
    value: Option<Value>,
}

impl<'de> EnumAccess<'de> for Variant {
    type Error = Error;
    type Variant = VariantValue;

    fn variant_seed<V: DeserializeSeed<'de>>(
        self,
        seed: V,
    ) -> Result<(V::Value, VariantValue), Error> {
        let name = self.variant.clone();
        let variant = seed.deserialize(ValueDe(Value::String(self.variant)))?;
        Ok((
            variant,
            VariantValue {
                name,
                value: self.value,
            },
        ))
    }
}

/// A variant's data, read as serde_json reads it.
struct VariantValue {
    name: String,
    value: Option<Value>,
}

impl<'de> VariantAccess<'de> for VariantValue {
    type Error = Error;

    fn unit_variant(self) -> Result<(), Error> {
        match self.value {
            Some(v) => de::Deserialize::deserialize(ValueDe(v)),
            None => Ok(()),
        }
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value, Error> {
        match self.value {
            Some(v) => seed
                .deserialize(ValueDe(v))
                .map_err(|e| e.at(Segment::Enum(self.name))),
            None => Err(de::Error::invalid_type(
                Unexpected::UnitVariant,
                &"newtype variant",
            )),
        }
    }

    fn tuple_variant<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Result<V::Value, Error> {
        match self.value {
            Some(Value::Array(a)) => {
                if a.is_empty() {
                    visitor.visit_unit()
                } else {
                    visit_array(a, visitor).map_err(|e| e.at(Segment::Enum(self.name)))
                }
            }
            Some(other) => Err(de::Error::invalid_type(
                unexpected(&other),
                &"tuple variant",
            )),
            None => Err(de::Error::invalid_type(
                Unexpected::UnitVariant,
                &"tuple variant",
            )),
        }
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        match self.value {
            Some(Value::Object(m)) => {
                visit_object(m, visitor).map_err(|e| e.at(Segment::Enum(self.name)))
            }
            Some(other) => Err(de::Error::invalid_type(
                unexpected(&other),
                &"struct variant",
            )),
            None => Err(de::Error::invalid_type(
                Unexpected::UnitVariant,
                &"struct variant",
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;
    use serde_json::json;

    #[derive(Deserialize, Debug, PartialEq)]
    #[serde(rename_all = "camelCase")]
    struct Outer {
        name: String,
        #[serde(default)]
        items: Vec<Inner>,
        kind: Option<Kind>,
    }

    #[derive(Deserialize, Debug, PartialEq)]
    struct Inner {
        n: i32,
        tags: Option<std::collections::BTreeMap<String, String>>,
    }

    #[derive(Deserialize, Debug, PartialEq)]
    enum Kind {
        Plain,
        Sized(u8),
    }

    type Decoded = Result<Outer, (String, String)>;

    /// What this decoder and serde_json with the path wrapper say for the same input.
    fn both(v: Value) -> (Decoded, Decoded) {
        let ours = from_value::<Outer>(v.clone());
        let theirs = serde_path_to_error::deserialize::<_, Outer>(v)
            .map_err(|e| (e.path().to_string(), e.inner().to_string()));
        (ours, theirs)
    }

    #[test]
    fn a_value_decodes_and_fails_as_serde_json_with_the_path_wrapper_does() {
        let cases = [
            json!({"name": "a", "items": [{"n": 1}, {"n": 2, "tags": {"x": "y"}}], "kind": "Plain"}),
            json!({"name": "a", "items": [{"n": 1}, {"n": "two"}]}),
            json!({"name": "a", "items": [{"n": 1}, {"n": 2, "tags": {"x": 3}}]}),
            json!({"name": "a", "items": [{"n": 1.5}]}),
            json!({"name": "a", "items": [{"n": -1}, {"n": 3000000000u64}]}),
            json!({"name": null}),
            json!({"items": []}),
            json!({"name": "a", "kind": {"Sized": 300}}),
            json!({"name": "a", "kind": {"Sized": 3}}),
            json!({"name": "a", "kind": "Nope"}),
            json!({"name": "a", "kind": 7}),
            json!({"name": "a", "kind": {"Plain": null, "Sized": 1}}),
            json!({"name": "a", "items": {"n": 1}}),
            json!([1, 2]),
            json!("text"),
            json!({"name": "a", "items": [{"n": 1, "n": 2}]}),
        ];
        for v in cases {
            let (ours, theirs) = both(v.clone());
            assert_eq!(ours, theirs, "input {v}");
        }
    }
}
