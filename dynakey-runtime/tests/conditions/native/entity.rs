//! A hand-written native-keyed entity: what `#[derive(DynamoEntity)]`
//! writes for `#[gsi("ByStatus", pk(tenant, shard), sk(status, score, bin,
//! at))]` and a sparse `#[gsi("ByTag", pk(tag), sk(score))]`, spelled out
//! with the runtime's interface, so these tests need nothing from the
//! derive.

use aws_sdk_dynamodb::primitives::Blob;
use aws_sdk_dynamodb::types::AttributeValue;
use dynakey_runtime::entity::{IndexMeta, IndexProjection};
use dynakey_runtime::key::{form, parts, KeyTemplate, KeyWriter, NativeKeyBuilder, NativeSortNext};
use dynakey_runtime::{
    Attr, AttrPath, DecodeError, EncodeError, Entity, EntityMeta, FieldForm, FieldMeta, Global,
    Item, Key, KeyAttrType, KeyFormatError, KeyMeta, NativeAttr, PartitionKey,
};
use time::OffsetDateTime;

#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    pub id: u32,
    pub tenant: String,
    pub shard: i32,
    pub status: String,
    pub score: i64,
    pub bin: Blob,
    pub at: OffsetDateTime,
    pub tag: Option<String>,
}

const PK_PARTS: [dynakey_runtime::key::TemplatePart; 2] = parts::<2>("ROW#<id:d6>");
static PK_TPL: KeyTemplate = KeyTemplate::__derived("ROW", "pk", None, "ROW#<id:d6>", &PK_PARTS);

pub static STATUS_PK: [NativeAttr; 2] = [
    NativeAttr::__new("tenant", "tenant", KeyAttrType::S),
    NativeAttr::__new("shard", "shard", KeyAttrType::N),
];
pub static STATUS_SK: [NativeAttr; 4] = [
    NativeAttr::__new("status", "status", KeyAttrType::S),
    NativeAttr::__new("score", "score", KeyAttrType::N),
    NativeAttr::__new("bin", "bin", KeyAttrType::B),
    NativeAttr::__new("at", "at", KeyAttrType::S),
];
pub static TAG_PK: [NativeAttr; 1] = [NativeAttr::__new("tag", "tag", KeyAttrType::S)];
pub static TAG_SK: [NativeAttr; 1] = [NativeAttr::__new("score", "score", KeyAttrType::N)];

static INDEXES: [IndexMeta; 2] = [
    IndexMeta::__native(
        "ByStatus",
        &STATUS_PK,
        &STATUS_SK,
        false,
        IndexProjection::All,
    ),
    IndexMeta::__native("ByTag", &TAG_PK, &TAG_SK, true, IndexProjection::KeysOnly),
];

static FIELDS: [FieldMeta; 8] = [
    FieldMeta::__plain("id", "u32"),
    FieldMeta::__plain("tenant", "String"),
    FieldMeta::__plain("shard", "i32"),
    FieldMeta::__plain("status", "String"),
    FieldMeta::__plain("score", "i64"),
    FieldMeta::__plain("bin", "Blob"),
    FieldMeta::__plain("at", "OffsetDateTime"),
    FieldMeta::__new(
        "tag",
        "tag",
        true,
        "Option<String>",
        false,
        FieldForm::Own,
        dynakey_runtime::codec::Shape::none,
    ),
];

static META: EntityMeta = EntityMeta::__new(
    "Row",
    "ROW",
    "_type",
    KeyMeta::__of(&PK_TPL, &["id"]),
    None,
    &INDEXES,
    &FIELDS,
);

fn put<T: Attr>(item: &mut Item, name: &str, v: &T) {
    if let Some(a) = v.to_attr() {
        item.insert(name.to_owned(), a);
    }
}

fn get<T: Attr>(item: &Item, name: &str) -> Result<T, DecodeError> {
    let path = AttrPath::root(name);
    match item.get(name) {
        Some(v) => T::from_attr(v, &path),
        None => T::from_missing(&path),
    }
}

impl Entity for Row {
    const META: &'static EntityMeta = &META;

    fn to_item(&self) -> Result<Item, EncodeError> {
        let mut item = Item::new();
        let pk = KeyWriter::new(&PK_TPL)
            .part(form::padded(), &self.id)
            .finish()?;
        item.insert("pk".into(), AttributeValue::S(pk));
        item.insert("_type".into(), AttributeValue::S("ROW".into()));
        put(&mut item, "id", &self.id);
        put(&mut item, "tenant", &self.tenant);
        put(&mut item, "shard", &self.shard);
        put(&mut item, "status", &self.status);
        put(&mut item, "score", &self.score);
        put(&mut item, "bin", &self.bin);
        put(&mut item, "at", &self.at);
        put(&mut item, "tag", &self.tag);
        Ok(item)
    }

    fn from_item(item: &Item) -> Result<Self, DecodeError> {
        Ok(Row {
            id: get(item, "id")?,
            tenant: get(item, "tenant")?,
            shard: get(item, "shard")?,
            status: get(item, "status")?,
            score: get(item, "score")?,
            bin: get(item, "bin")?,
            at: get(item, "at")?,
            tag: get(item, "tag")?,
        })
    }

    fn item_key(&self) -> Result<Key<Self>, KeyFormatError> {
        Row::key(self.id)
    }
}

impl dynakey_runtime::Unversioned for Row {}

impl Row {
    /// The table key.
    pub fn key(id: u32) -> Result<Key<Row>, KeyFormatError> {
        KeyWriter::new(&PK_TPL)
            .part(form::padded(), &id)
            .table_key::<Row>(None)
    }

    /// What the derive generates as `Row::by_status_pk(tenant, shard)`.
    pub fn by_status_pk(
        tenant: &str,
        shard: i32,
    ) -> Result<PartitionKey<Row, Global>, KeyFormatError> {
        NativeKeyBuilder::<Row>::new(Row::META.discriminator, "ByStatus", &STATUS_PK)
            .value::<String, _>(tenant)
            .value::<i32, _>(&shard)
            .partition()
    }

    /// What the derive generates as `Row::by_status_sk()`.
    pub fn by_status_sk() -> NativeSortNext<Row, Global, String> {
        NativeSortNext::__of(Row::META.discriminator, "ByStatus", &STATUS_SK)
    }

    /// `Row::by_tag_pk(tag)`.
    pub fn by_tag_pk(tag: &str) -> Result<PartitionKey<Row, Global>, KeyFormatError> {
        NativeKeyBuilder::<Row>::new(Row::META.discriminator, "ByTag", &TAG_PK)
            .value::<String, _>(tag)
            .partition()
    }

    /// The sort key as a tuple ordered as DynamoDB orders the index: the
    /// model's order (strings and bytes bytewise, numbers and instants by
    /// value).
    pub fn sort_key(&self) -> (Vec<u8>, i64, Vec<u8>, OffsetDateTime) {
        (
            self.status.as_bytes().to_vec(),
            self.score,
            self.bin.as_ref().to_vec(),
            self.at,
        )
    }
}
