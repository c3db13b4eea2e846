//! DynamoDB JSON (`{"pk": {"S": "USER#ann"}, "n": {"N": "1"}}`) read into
//! items through serde, from text (an export's line, straight into
//! `AttributeValue`s with no JSON tree in between) or from a
//! `serde_json::Value` (a stream record), by one reader. An attribute value
//! of no DynamoDB type is an error naming its path (`NewImage.tags[2]`);
//! the path is only written out when there is an error.
//!
//! A map or list at the deepest level DynamoDB stores is refused before
//! it is read ([`MAX_NESTING`](crate::codec::MAX_NESTING)), so the reader
//! recurses at most that deep whatever its input: a `Value` has no depth
//! limit, and from text serde_json's own (128 JSON levels) would let a
//! value 60 levels deep through. The refusal is recorded beside the
//! reader ([`Deep`]), so that it comes out as its own typed error, not as
//! serde's message.

use std::cell::Cell;
use std::collections::HashMap;
use std::fmt;

use aws_sdk_dynamodb::primitives::Blob;
use aws_sdk_dynamodb::types::AttributeValue;
use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::Value;

use crate::codec::{nests_too_deep, AttrPath as Path, Item};
use crate::error::change::ChangeError;

/// Why DynamoDB JSON did not read: serde's error (the syntax, an attribute
/// of no type, named by its path), or a value nested past the levels
/// DynamoDB stores, at the path of the map or list refused.
#[derive(Debug)]
pub(crate) enum ReadError {
    Json(serde_json::Error),
    TooDeep(String),
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReadError::Json(e) => e.fmt(f),
            ReadError::TooDeep(at) => ChangeError::too_deep(at.as_str()).fmt(f),
        }
    }
}

impl ReadError {
    /// As a change record's error.
    pub(crate) fn into_change(self) -> ChangeError {
        match self {
            ReadError::Json(e) => ChangeError::malformed(e.to_string()),
            ReadError::TooDeep(at) => ChangeError::too_deep(at),
        }
    }
}

/// Where the reader refused a value too deep, if it did: set where the
/// refusal is made, read where serde's error comes out.
type Deep = Cell<Option<String>>;

/// `r` with a refusal recorded in `deep` as [`ReadError::TooDeep`].
fn read<T>(r: Result<T, serde_json::Error>, deep: &Deep) -> Result<T, ReadError> {
    r.map_err(|e| match deep.take() {
        Some(path) => ReadError::TooDeep(path),
        None => ReadError::Json(e),
    })
}

/// An item from `v`; `root` names it in errors.
pub(crate) fn item_from_value(v: &Value, root: &str) -> Result<Item, ReadError> {
    let deep = Deep::default();
    read(
        ItemSeed(At::new(Path::root(root), &deep)).deserialize(v),
        &deep,
    )
}

/// A place in the value being read: its path, and where a refusal of a
/// value too deep is recorded.
#[derive(Clone, Copy)]
pub(crate) struct At<'a> {
    path: Path<'a>,
    deep: &'a Deep,
}

impl<'a> At<'a> {
    fn new(path: Path<'a>, deep: &'a Deep) -> Self {
        At { path, deep }
    }

    fn field(&'a self, name: &'a str) -> At<'a> {
        At::new(self.path.field(name), self.deep)
    }

    fn index(&'a self, i: usize) -> At<'a> {
        At::new(self.path.index(i), self.deep)
    }

    /// Refuses a map or list here when it lies at the deepest level
    /// DynamoDB stores (the root names the item: its attributes are at
    /// level 1), before anything it holds is read.
    fn enter<E: de::Error>(&self) -> Result<(), E> {
        if !nests_too_deep(self.path.depth().saturating_sub(1)) {
            return Ok(());
        }
        let path = self.path.to_string();
        let message = format!(
            "{path}: a map or list nested past the {} levels DynamoDB stores",
            crate::codec::MAX_NESTING
        );
        self.deep.set(Some(path));
        Err(E::custom(message))
    }
}

impl fmt::Display for At<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.path.fmt(f)
    }
}

/// A map of attributes at a path.
pub(crate) struct ItemSeed<'a>(pub At<'a>);

impl<'de> DeserializeSeed<'de> for ItemSeed<'_> {
    type Value = Item;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Item, D::Error> {
        d.deserialize_map(ItemVisitor(self.0))
    }
}

struct ItemVisitor<'a>(At<'a>);

impl<'de> Visitor<'de> for ItemVisitor<'_> {
    type Value = Item;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "a map of attributes at {}", self.0)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> Result<Item, A::Error> {
        let mut item = HashMap::with_capacity(m.size_hint().unwrap_or(8));
        while let Some(k) = m.next_key::<String>()? {
            let v = m.next_value_seed(AttrSeed(self.0.field(&k)))?;
            item.insert(k, v);
        }
        Ok(item)
    }
}

/// `{"S": ..}`, `{"N": ..}`, … : one type tag and its value.
struct AttrSeed<'a>(At<'a>);

impl<'de> DeserializeSeed<'de> for AttrSeed<'_> {
    type Value = AttributeValue;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<AttributeValue, D::Error> {
        d.deserialize_map(AttrVisitor(self.0))
    }
}

struct AttrVisitor<'a>(At<'a>);

const ONE_TAG: &str = "expected an object with one type tag, as {\"S\": \"text\"}";

/// The type tags of DynamoDB JSON.
#[derive(Clone, Copy)]
enum Tag {
    S,
    N,
    B,
    Bool,
    Null,
    Ss,
    Ns,
    Bs,
    L,
    M,
}

impl Tag {
    fn name(self) -> &'static str {
        match self {
            Tag::S => "S",
            Tag::N => "N",
            Tag::B => "B",
            Tag::Bool => "BOOL",
            Tag::Null => "NULL",
            Tag::Ss => "SS",
            Tag::Ns => "NS",
            Tag::Bs => "BS",
            Tag::L => "L",
            Tag::M => "M",
        }
    }
}

/// A type tag, or the unknown text.
struct TagSeed;

impl<'de> DeserializeSeed<'de> for TagSeed {
    type Value = Result<Tag, String>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_str(TagSeed)
    }
}

impl Visitor<'_> for TagSeed {
    type Value = Result<Tag, String>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a type tag")
    }

    fn visit_str<E: de::Error>(self, s: &str) -> Result<Self::Value, E> {
        Ok(match s {
            "S" => Ok(Tag::S),
            "N" => Ok(Tag::N),
            "B" => Ok(Tag::B),
            "BOOL" => Ok(Tag::Bool),
            "NULL" => Ok(Tag::Null),
            "SS" => Ok(Tag::Ss),
            "NS" => Ok(Tag::Ns),
            "BS" => Ok(Tag::Bs),
            "L" => Ok(Tag::L),
            "M" => Ok(Tag::M),
            other => Err(other.to_owned()),
        })
    }
}

impl<'de> Visitor<'de> for AttrVisitor<'_> {
    type Value = AttributeValue;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {ONE_TAG}", self.0)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> Result<AttributeValue, A::Error> {
        let p = self.0;
        let bad = |what: &str| -> A::Error { de::Error::custom(format!("{p}: {what}")) };
        let tag = match m.next_key_seed(TagSeed)? {
            None => return Err(bad(ONE_TAG)),
            Some(Err(other)) => return Err(bad(&format!("unknown type tag {other:?}"))),
            Some(Ok(tag)) => tag,
        };
        let scalar = |kind| Scalar { path: p, tag, kind };
        let list = |kind| List { path: p, tag, kind };
        let v = match tag {
            Tag::S => AttributeValue::S(m.next_value_seed(scalar(Kind::Text))?.text()),
            Tag::N => AttributeValue::N(m.next_value_seed(scalar(Kind::Number))?.text()),
            Tag::B => AttributeValue::B(m.next_value_seed(scalar(Kind::Blob))?.blob()),
            Tag::Bool => AttributeValue::Bool(m.next_value_seed(scalar(Kind::Bool))?.flag()),
            // `{"NULL": true}`; whatever it holds, the attribute is null.
            Tag::Null => AttributeValue::Null(m.next_value_seed(NullSeed)?),
            Tag::Ss => AttributeValue::Ss(all(m.next_value_seed(list(Kind::Text))?, One::text)),
            Tag::Ns => AttributeValue::Ns(all(m.next_value_seed(list(Kind::Number))?, One::text)),
            Tag::Bs => AttributeValue::Bs(all(m.next_value_seed(list(Kind::Blob))?, One::blob)),
            Tag::L => {
                p.enter()?;
                AttributeValue::L(all(m.next_value_seed(list(Kind::Attr))?, One::attr))
            }
            Tag::M => {
                p.enter()?;
                AttributeValue::M(m.next_value_seed(ItemSeed(p))?)
            }
        };
        if m.next_key::<IgnoredAny>()?.is_some() {
            return Err(bad(ONE_TAG));
        }
        Ok(v)
    }
}

/// What `{"NULL": ..}` holds: `true` (or `false`); anything else is read
/// as true and skipped without recursing into it.
struct NullSeed;

impl<'de> DeserializeSeed<'de> for NullSeed {
    type Value = bool;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<bool, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for NullSeed {
    type Value = bool;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("true")
    }

    fn visit_bool<E: de::Error>(self, b: bool) -> Result<bool, E> {
        Ok(b)
    }

    fn visit_str<E: de::Error>(self, _: &str) -> Result<bool, E> {
        Ok(true)
    }

    fn visit_u64<E: de::Error>(self, _: u64) -> Result<bool, E> {
        Ok(true)
    }

    fn visit_i64<E: de::Error>(self, _: i64) -> Result<bool, E> {
        Ok(true)
    }

    fn visit_f64<E: de::Error>(self, _: f64) -> Result<bool, E> {
        Ok(true)
    }

    fn visit_unit<E: de::Error>(self) -> Result<bool, E> {
        Ok(true)
    }

    // The members are skipped as `IgnoredAny`, which does not recurse
    // (serde_json skips text with a loop; a `Value` is not walked).
    fn visit_seq<A: SeqAccess<'de>>(self, mut s: A) -> Result<bool, A::Error> {
        while s.next_element::<IgnoredAny>()?.is_some() {}
        Ok(true)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> Result<bool, A::Error> {
        while m.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
        Ok(true)
    }
}

/// What one value inside an attribute is read as.
#[derive(Clone, Copy)]
enum Kind {
    Text,
    /// Text, or a JSON number (some writers give numbers as JSON numbers).
    Number,
    Blob,
    Bool,
    Attr,
}

/// One value read as its [`Kind`].
enum One {
    Text(String),
    Blob(Blob),
    Bool(bool),
    Attr(AttributeValue),
}

// Each is read only by its own kind, so the other arms cannot happen.
impl One {
    fn text(self) -> String {
        match self {
            One::Text(s) => s,
            _ => String::new(),
        }
    }
    fn blob(self) -> Blob {
        match self {
            One::Blob(b) => b,
            _ => Blob::new(Vec::new()),
        }
    }
    fn flag(self) -> bool {
        matches!(self, One::Bool(true))
    }
    fn attr(self) -> AttributeValue {
        match self {
            One::Attr(a) => a,
            _ => AttributeValue::Null(true),
        }
    }
}

/// Every value of a list as `f` reads it.
fn all<T>(values: Vec<One>, f: fn(One) -> T) -> Vec<T> {
    values.into_iter().map(f).collect()
}

struct Scalar<'a> {
    path: At<'a>,
    tag: Tag,
    kind: Kind,
}

impl<'de> DeserializeSeed<'de> for Scalar<'_> {
    type Value = One;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<One, D::Error> {
        match self.kind {
            Kind::Attr => AttrSeed(self.path).deserialize(d).map(One::Attr),
            Kind::Number => d.deserialize_any(self),
            Kind::Bool => d.deserialize_bool(self),
            Kind::Text | Kind::Blob => d.deserialize_str(self),
        }
    }
}

impl Visitor<'_> for Scalar<'_> {
    type Value = One;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what = match self.kind {
            Kind::Text => "holds a string",
            Kind::Number => "holds a number's text",
            Kind::Blob => "holds base64 text",
            Kind::Bool => "holds true or false",
            Kind::Attr => "holds an attribute value",
        };
        write!(f, "{}: {} {what}", self.path, self.tag.name())
    }

    fn visit_str<E: de::Error>(self, s: &str) -> Result<One, E> {
        match self.kind {
            Kind::Text | Kind::Number => Ok(One::Text(s.to_owned())),
            Kind::Blob => aws_smithy_types::base64::decode(s)
                .map(|b| One::Blob(Blob::new(b)))
                .map_err(|e| {
                    E::custom(format!(
                        "{}: {} is not base64: {e}",
                        self.path,
                        self.tag.name()
                    ))
                }),
            _ => Err(E::invalid_type(de::Unexpected::Str(s), &self)),
        }
    }

    fn visit_string<E: de::Error>(self, s: String) -> Result<One, E> {
        match self.kind {
            Kind::Text | Kind::Number => Ok(One::Text(s)),
            _ => self.visit_str(&s),
        }
    }

    fn visit_bool<E: de::Error>(self, b: bool) -> Result<One, E> {
        match self.kind {
            Kind::Bool => Ok(One::Bool(b)),
            _ => Err(E::invalid_type(de::Unexpected::Bool(b), &self)),
        }
    }

    fn visit_u64<E: de::Error>(self, n: u64) -> Result<One, E> {
        self.number(serde_json::Number::from(n), de::Unexpected::Unsigned(n))
    }

    fn visit_i64<E: de::Error>(self, n: i64) -> Result<One, E> {
        self.number(serde_json::Number::from(n), de::Unexpected::Signed(n))
    }

    fn visit_f64<E: de::Error>(self, n: f64) -> Result<One, E> {
        match serde_json::Number::from_f64(n) {
            Some(x) => self.number(x, de::Unexpected::Float(n)),
            None => Err(E::invalid_type(de::Unexpected::Float(n), &self)),
        }
    }
}

impl Scalar<'_> {
    /// A JSON number: its text, where a number is wanted.
    fn number<E: de::Error>(
        self,
        n: serde_json::Number,
        as_seen: de::Unexpected,
    ) -> Result<One, E> {
        match self.kind {
            Kind::Number => Ok(One::Text(n.to_string())),
            _ => Err(E::invalid_type(as_seen, &self)),
        }
    }
}

/// A JSON array of one [`Kind`] (a set's members, a list's values).
struct List<'a> {
    path: At<'a>,
    tag: Tag,
    kind: Kind,
}

impl<'de> DeserializeSeed<'de> for List<'_> {
    type Value = Vec<One>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Vec<One>, D::Error> {
        d.deserialize_seq(self)
    }
}

impl<'de> Visitor<'de> for List<'_> {
    type Value = Vec<One>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {} holds a list", self.path, self.tag.name())
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut s: A) -> Result<Vec<One>, A::Error> {
        let mut out = Vec::with_capacity(s.size_hint().unwrap_or(4));
        loop {
            let seed = Scalar {
                path: self.path.index(out.len()),
                tag: self.tag,
                kind: self.kind,
            };
            match s.next_element_seed(seed)? {
                Some(v) => out.push(v),
                None => return Ok(out),
            }
        }
    }
}

/// One line of a table export, its parts read straight into items.
#[derive(Debug, Default)]
pub(crate) struct ExportLine {
    /// A full export's item.
    pub item: Option<Item>,
    /// An incremental export's parts.
    pub keys: Option<Item>,
    pub old: Option<Item>,
    pub new: Option<Item>,
    /// `Metadata.WriteTimestampMicros`, as written.
    pub write_time: Option<Value>,
}

/// Reads an export's line; a syntax error or an attribute of no type is
/// the `serde_json` error, with the path and the column.
pub(crate) fn export_line(text: &str) -> Result<ExportLine, ReadError> {
    let deep = Deep::default();
    let mut d = serde_json::Deserializer::from_str(text);
    let line = read(d.deserialize_map(LineVisitor(&deep)), &deep)?;
    d.end().map_err(ReadError::Json)?;
    Ok(line)
}

struct LineVisitor<'a>(&'a Deep);

impl<'de> Visitor<'de> for LineVisitor<'_> {
    type Value = ExportLine;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an object, as {\"Item\": {..}}")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> Result<ExportLine, A::Error> {
        let mut line = ExportLine::default();
        while let Some(k) = m.next_key::<String>()? {
            let slot = match k.as_str() {
                "Item" => &mut line.item,
                "Keys" => &mut line.keys,
                "OldImage" => &mut line.old,
                "NewImage" => &mut line.new,
                "Metadata" => {
                    let mut meta = m.next_value::<Value>()?;
                    line.write_time = meta.get_mut("WriteTimestampMicros").map(Value::take);
                    continue;
                }
                _ => {
                    m.next_value::<IgnoredAny>()?;
                    continue;
                }
            };
            *slot = m.next_value_seed(OptionalItem(At::new(Path::root(&k), self.0)))?;
        }
        Ok(line)
    }
}

/// An item, or `null` for none.
struct OptionalItem<'a>(At<'a>);

impl<'de> DeserializeSeed<'de> for OptionalItem<'_> {
    type Value = Option<Item>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Option<Item>, D::Error> {
        d.deserialize_option(self)
    }
}

impl<'de> Visitor<'de> for OptionalItem<'_> {
    type Value = Option<Item>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "a map of attributes at {}", self.0)
    }

    fn visit_none<E: de::Error>(self) -> Result<Option<Item>, E> {
        Ok(None)
    }

    fn visit_unit<E: de::Error>(self) -> Result<Option<Item>, E> {
        Ok(None)
    }

    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Option<Item>, D::Error> {
        ItemSeed(self.0).deserialize(d).map(Some)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn text_and_value_read_alike() {
        let v = json!({
            "s": {"S": "x"}, "n": {"N": "1.5"}, "nn": {"N": 2}, "f": {"N": 2.5}, "b": {"B": "aGk="},
            "t": {"BOOL": true}, "z": {"NULL": true}, "ss": {"SS": ["a", "b"]},
            "ns": {"NS": ["1", 2]}, "bs": {"BS": ["aGk="]},
            "l": {"L": [{"S": "y"}, {"M": {"k": {"N": "3"}}}]}
        });
        let from_value = item_from_value(&v, "img").unwrap();
        let line =
            export_line(&json!({ "Item": v, "Other": [1, {"x": null}] }).to_string()).unwrap();
        assert_eq!(line.item.unwrap(), from_value);
        assert_eq!(from_value["f"], AttributeValue::N("2.5".into()));
        assert_eq!(from_value["nn"], AttributeValue::N("2".into()));
    }

    #[test]
    fn errors_name_the_path_from_text_too() {
        let e = export_line(r#"{"Item": {"l": {"L": [{"S": "y"}, {"S": 5}]}}}"#).unwrap_err();
        assert!(e.to_string().contains("Item.l[1]: S holds a string"), "{e}");
        let e = export_line(r#"{"NewImage": {"b": {"B": "***"}}}"#).unwrap_err();
        assert!(e.to_string().contains("NewImage.b: B is not base64"), "{e}");
        let e = export_line(r#"{"Keys": {"k": {"S": "a", "N": "1"}}}"#).unwrap_err();
        assert!(
            e.to_string()
                .contains("Keys.k: expected an object with one type tag"),
            "{e}"
        );
        let e = export_line(r#"{"Item": {"k": {"Q": 1}}}"#).unwrap_err();
        assert!(
            e.to_string().contains("Item.k: unknown type tag \"Q\""),
            "{e}"
        );
        let e = export_line(r#"{"Item": 7}"#).unwrap_err();
        assert!(e.to_string().contains("map of attributes at Item"), "{e}");
        let e = export_line(r#"{"Item": {}} trailing"#).unwrap_err();
        assert!(matches!(&e, ReadError::Json(j) if j.is_syntax()), "{e}");
        assert!(export_line(r#"{"NewImage": null, "Keys": {}}"#)
            .unwrap()
            .new
            .is_none());
    }
}
