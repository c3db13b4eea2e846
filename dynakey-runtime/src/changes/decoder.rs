//! The one decoder: a [`ChangeRecord`] (from any source) into a typed
//! [`Change`].

use std::fmt;

use aws_sdk_dynamodb::types::AttributeValue;

use super::change::{Change, ChangeKind, Image, Lacks};
use super::diff;
use super::record::{ChangeRecord, Operation};
use crate::codec::{DecodeError, Item};
use crate::entity::{Entity, EntityMeta, IndexMeta};
use crate::error::change::ChangeError;
use crate::union::EntityUnion;

type DecodeFn<T> = fn(&str, &Item) -> Option<Result<T, DecodeError>>;

/// Decodes stream records into typed changes of `T`: a derived union
/// ([`ChangeDecoder::union`]) or a single entity ([`ChangeDecoder::entity`]).
/// The same decoder reads the Streams API's records, Lambda events and
/// DynamoDB JSON (the `decode_*` methods) and is what `db.changes(..)` uses.
///
/// By default an item of an unknown type is a [`ChangeKind::Unknown`]
/// change and a record lacking an image the change needs is a
/// [`ChangeError::MissingImage`]; [`strict`](Self::strict) and
/// [`allow_partial`](Self::allow_partial) change that.
///
/// ```
/// # use dynakey_derive::DynamoEntity;
/// # #[derive(DynamoEntity, Debug, Clone, PartialEq)]
/// # #[dynamo(crate = "dynakey_runtime", entity = "NOTE", discriminator_attr = "entity")]
/// # #[pk("USER#<user>")]
/// # #[sk("NOTE#<id:d6>")]
/// # struct Note { user: String, id: u32, text: String }
/// use dynakey_runtime::changes::{ChangeDecoder, ChangeKind};
/// let record = serde_json::json!({
///     "eventName": "INSERT",
///     "dynamodb": {
///         "Keys": { "pk": { "S": "USER#ann" }, "sk": { "S": "NOTE#000001" } },
///         "NewImage": {
///             "pk": { "S": "USER#ann" }, "sk": { "S": "NOTE#000001" }, "entity": { "S": "NOTE" },
///             "user": { "S": "ann" }, "id": { "N": "1" }, "text": { "S": "hi" }
///         },
///         "SequenceNumber": "100", "StreamViewType": "NEW_AND_OLD_IMAGES"
///     }
/// });
/// let change = ChangeDecoder::<Note>::entity().decode_json(&record).unwrap();
/// let ChangeKind::Inserted(note) = change.kind else { panic!() };
/// assert_eq!(note, Note { user: "ann".into(), id: 1, text: "hi".into() });
/// ```
#[must_use]
pub struct ChangeDecoder<T> {
    metas: Vec<&'static EntityMeta>,
    indexes: Vec<&'static IndexMeta>,
    decode: DecodeFn<T>,
    strict: bool,
    partial: bool,
}

impl<T> Clone for ChangeDecoder<T> {
    fn clone(&self) -> Self {
        Self {
            metas: self.metas.clone(),
            indexes: self.indexes.clone(),
            decode: self.decode,
            strict: self.strict,
            partial: self.partial,
        }
    }
}

impl<T> fmt::Debug for ChangeDecoder<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let types: Vec<&str> = self.metas.iter().map(|m| m.type_name).collect();
        f.debug_struct("ChangeDecoder")
            .field("types", &types)
            .field("strict", &self.strict)
            .field("partial", &self.partial)
            .finish()
    }
}

fn decode_entity<E: Entity>(discriminator: &str, item: &Item) -> Option<Result<E, DecodeError>> {
    (discriminator == E::META.discriminator).then(|| E::from_item(item))
}

impl<T> ChangeDecoder<T> {
    fn with(metas: Vec<&'static EntityMeta>, decode: DecodeFn<T>) -> Self {
        let indexes = diff::indexes_of(&metas);
        Self {
            metas,
            indexes,
            decode,
            strict: false,
            partial: false,
        }
    }

    /// A decoder of every variant of the union `T`.
    ///
    /// ```
    /// # use dynakey_derive::{DynamoEntity, DynamoUnion};
    /// # #[derive(DynamoEntity, Debug, Clone, PartialEq)]
    /// # #[dynamo(crate = "dynakey_runtime", entity = "NOTE", discriminator_attr = "entity")]
    /// # #[pk("USER#<user>")]
    /// # #[sk("NOTE#<id:d6>")]
    /// # struct Note { user: String, id: u32, text: String }
    /// # #[derive(DynamoEntity, Debug, Clone, PartialEq)]
    /// # #[dynamo(crate = "dynakey_runtime", entity = "PROFILE", discriminator_attr = "entity")]
    /// # #[pk("USER#<user>")]
    /// # #[sk("PROFILE")]
    /// # struct Profile { user: String, name: String }
    /// # #[derive(DynamoUnion, Debug, Clone, PartialEq)]
    /// # #[dynamo(crate = "dynakey_runtime")]
    /// # enum UserItem { Note(Note), Profile(Profile) }
    /// use dynakey_runtime::changes::{ChangeDecoder, ChangeKind, ChangeRecord, Operation};
    /// use dynakey_runtime::Entity;
    /// let p = Profile { user: "ann".into(), name: "Ann".into() };
    /// let keys = p.item_key().unwrap().to_attributes();
    /// let r = ChangeRecord::new(Operation::Remove, keys).with_old(p.to_item().unwrap());
    /// let c = ChangeDecoder::<UserItem>::union().decode(&r).unwrap();
    /// assert_eq!(c.kind, ChangeKind::Removed(UserItem::Profile(p)));
    /// ```
    pub fn union() -> Self
    where
        T: EntityUnion,
    {
        Self::with(T::VARIANTS.to_vec(), T::decode_variant)
    }

    /// A decoder of the single entity `T`; items of other types are
    /// unknown to it (see the example on [`ChangeDecoder`]).
    pub fn entity() -> Self
    where
        T: Entity,
    {
        Self::with(vec![T::META], decode_entity::<T>)
    }

    /// An item of an unknown type is a [`ChangeError::UnknownDiscriminator`],
    /// not a [`ChangeKind::Unknown`] change.
    ///
    /// ```
    /// # use dynakey_derive::DynamoEntity;
    /// # #[derive(DynamoEntity, Debug, Clone, PartialEq)]
    /// # #[dynamo(crate = "dynakey_runtime", entity = "NOTE", discriminator_attr = "entity")]
    /// # #[pk("USER#<user>")]
    /// # struct Note { user: String }
    /// use aws_sdk_dynamodb::types::AttributeValue::S;
    /// use dynakey_runtime::changes::{ChangeDecoder, ChangeError, ChangeKind, ChangeRecord, Operation};
    /// let item: dynakey_runtime::Item =
    ///     [("pk".to_owned(), S("X#1".into())), ("entity".to_owned(), S("STRAY".into()))].into();
    /// let r = ChangeRecord::new(Operation::Insert, item.clone()).with_new(item);
    /// let lenient = ChangeDecoder::<Note>::entity().decode(&r).unwrap();
    /// assert!(matches!(lenient.kind, ChangeKind::Unknown { ref discriminator, .. } if discriminator == "STRAY"));
    /// let strict = ChangeDecoder::<Note>::entity().strict().decode(&r).unwrap_err();
    /// assert!(matches!(strict, ChangeError::UnknownDiscriminator { .. }));
    /// ```
    pub fn strict(mut self) -> Self {
        self.strict = true;
        self
    }

    /// A record lacking an image its change needs (a `KEYS_ONLY`,
    /// `NEW_IMAGE` or `OLD_IMAGE` stream) is a [`ChangeKind::Partial`]
    /// change holding what it has, not a [`ChangeError::MissingImage`].
    ///
    /// ```
    /// # use dynakey_derive::DynamoEntity;
    /// # #[derive(DynamoEntity, Debug, Clone, PartialEq)]
    /// # #[dynamo(crate = "dynakey_runtime", entity = "NOTE", discriminator_attr = "entity")]
    /// # #[pk("USER#<user>")]
    /// # struct Note { user: String, text: String }
    /// use dynakey_runtime::changes::{ChangeDecoder, ChangeError, ChangeKind, ChangeRecord, Lacks, Operation};
    /// use dynakey_runtime::Entity;
    /// let n = Note { user: "ann".into(), text: "hi".into() };
    /// let r = ChangeRecord::new(Operation::Modify, n.item_key().unwrap().to_attributes())
    ///     .with_new(n.to_item().unwrap()); // a NEW_IMAGE stream: no old image
    /// let err = ChangeDecoder::<Note>::entity().decode(&r).unwrap_err();
    /// assert!(matches!(err, ChangeError::MissingImage { .. }));
    /// let c = ChangeDecoder::<Note>::entity().allow_partial().decode(&r).unwrap();
    /// assert_eq!(c.kind, ChangeKind::Partial { op: Operation::Modify, old: None, new: Some(n), lacks: Lacks::Old });
    /// ```
    pub fn allow_partial(mut self) -> Self {
        self.partial = true;
        self
    }

    /// The entity metadata this decoder knows.
    ///
    /// ```
    /// # use dynakey_derive::DynamoEntity;
    /// # #[derive(DynamoEntity, Debug, Clone, PartialEq)]
    /// # #[dynamo(crate = "dynakey_runtime", entity = "NOTE", discriminator_attr = "entity")]
    /// # #[pk("USER#<user>")]
    /// # struct Note { user: String }
    /// let d = dynakey_runtime::changes::ChangeDecoder::<Note>::entity();
    /// assert_eq!(d.metas()[0].discriminator, "NOTE");
    /// ```
    pub fn metas(&self) -> &[&'static EntityMeta] {
        &self.metas
    }

    /// Decodes one stored item (a full export's, a scan's) as `T`: `None`
    /// when its type is none the decoder knows (an error with
    /// [`strict`](Self::strict)).
    ///
    /// ```
    /// # use dynakey_derive::DynamoEntity;
    /// # #[derive(DynamoEntity, Debug, Clone, PartialEq)]
    /// # #[dynamo(crate = "dynakey_runtime", entity = "NOTE", discriminator_attr = "entity")]
    /// # #[pk("USER#<user>")]
    /// # struct Note { user: String }
    /// use aws_sdk_dynamodb::types::AttributeValue::S;
    /// use dynakey_runtime::changes::{ChangeDecoder, ChangeError};
    /// use dynakey_runtime::Entity;
    /// let d = ChangeDecoder::<Note>::entity();
    /// let note = Note { user: "ann".into() };
    /// assert_eq!(d.decode_item(&note.to_item().unwrap()).unwrap(), Some(note));
    /// let stray: dynakey_runtime::Item =
    ///     [("pk".to_owned(), S("X#1".into())), ("entity".to_owned(), S("STRAY".into()))].into();
    /// assert_eq!(d.decode_item(&stray).unwrap(), None);
    /// assert!(matches!(d.strict().decode_item(&stray), Err(ChangeError::UnknownDiscriminator { .. })));
    /// ```
    pub fn decode_item(&self, item: &Item) -> Result<Option<T>, ChangeError> {
        match self.classify(item) {
            (_, Some(meta)) => self.decode_image(Image::New, item, meta).map(Some),
            (value, None) if self.strict => Err(ChangeError::UnknownDiscriminator {
                value,
                keys: self.item_keys(item),
            }),
            (_, None) => Ok(None),
        }
    }

    /// The table key attributes of `item` as text, for messages.
    fn item_keys(&self, item: &Item) -> String {
        let Some(m) = self.metas.first() else {
            return String::new();
        };
        let keys: Item = std::iter::once(m.pk.attr)
            .chain(m.sk.as_ref().map(|k| k.attr))
            .filter_map(|a| item.get(a).map(|v| (a.to_owned(), v.clone())))
            .collect();
        diff::keys_text(&keys)
    }

    /// The item's discriminator, and the metadata of its type if known.
    fn classify(&self, item: &Item) -> (String, Option<&'static EntityMeta>) {
        let text = |attr: &str| match item.get(attr) {
            Some(AttributeValue::S(s)) => Some(s.as_str()),
            _ => None,
        };
        for m in &self.metas {
            if text(m.discriminator_attr) == Some(m.discriminator) {
                return (m.discriminator.to_owned(), Some(m));
            }
        }
        let attr = self
            .metas
            .first()
            .map_or("entity", |m| m.discriminator_attr);
        (text(attr).unwrap_or_default().to_owned(), None)
    }

    fn decode_image(&self, image: Image, item: &Item, meta: &EntityMeta) -> Result<T, ChangeError> {
        match (self.decode)(meta.discriminator, item) {
            Some(r) => r.map_err(|source| ChangeError::Decode { image, source }),
            // `classify` found the discriminator among `metas`, so the
            // decode function knows it; a hand-written union that does not
            // is reported as unknown rather than trusted.
            None => Err(ChangeError::UnknownDiscriminator {
                value: meta.discriminator.to_owned(),
                keys: String::new(),
            }),
        }
    }

    /// Decodes one record (from any source) into a typed change (see the
    /// examples on [`ChangeDecoder`] and [`Change`]).
    pub fn decode(&self, r: &ChangeRecord) -> Result<Change<T>, ChangeError> {
        // A record built by hand may hold anything: a value nested past
        // what DynamoDB stores is refused before the images are compared
        // and copied (both recurse).
        ChangeError::check_depth("Keys", &r.keys)?;
        for (part, image) in [("OldImage", &r.old), ("NewImage", &r.new)] {
            if let Some(image) = image {
                ChangeError::check_depth(part, image)?;
            }
        }
        let (need_old, need_new) = r.op.needs();
        let old = r.old.as_ref().filter(|_| need_old);
        let new = r.new.as_ref().filter(|_| need_new);
        let old_type = old.map(|i| self.classify(i));
        let new_type = new.map(|i| self.classify(i));
        let unknown = [&old_type, &new_type]
            .into_iter()
            .flatten()
            .find(|(_, m)| m.is_none());
        let lacks = Lacks::of(need_old && old.is_none(), need_new && new.is_none());
        let keys = || diff::keys_text(&r.keys);

        let kind = if let Some((value, _)) = unknown {
            if self.strict {
                return Err(ChangeError::UnknownDiscriminator {
                    value: value.clone(),
                    keys: keys(),
                });
            }
            ChangeKind::Unknown {
                op: r.op,
                discriminator: value.clone(),
                old: old.cloned(),
                new: new.cloned(),
            }
        } else if let Some(lacks) = lacks {
            if !self.partial {
                let image = if lacks.includes(Image::Old) {
                    Image::Old
                } else {
                    Image::New
                };
                return Err(ChangeError::MissingImage {
                    op: r.op,
                    image,
                    view: r.view,
                    keys: keys(),
                });
            }
            ChangeKind::Partial {
                op: r.op,
                old: self.typed(Image::Old, old, &old_type)?,
                new: self.typed(Image::New, new, &new_type)?,
                lacks,
            }
        } else {
            let o = self.typed(Image::Old, old, &old_type)?;
            let n = self.typed(Image::New, new, &new_type)?;
            match (r.op, o, n) {
                (Operation::Insert, _, Some(n)) => ChangeKind::Inserted(n),
                (Operation::Remove, Some(o), _) => ChangeKind::Removed(o),
                (Operation::Expire, Some(o), _) => ChangeKind::Expired(o),
                (Operation::Modify, Some(o), Some(n)) => {
                    let mut metas: Vec<&'static EntityMeta> = Vec::with_capacity(2);
                    metas.extend(old_type.as_ref().and_then(|t| t.1));
                    metas.extend(new_type.as_ref().and_then(|t| t.1));
                    let changed = match (old, new) {
                        (Some(a), Some(b)) => diff::changed_fields(&metas, a, b),
                        _ => Vec::new(),
                    };
                    ChangeKind::Modified {
                        old: o,
                        new: n,
                        changed,
                    }
                }
                // `lacks` is None, so every needed image is here.
                _ => {
                    return Err(ChangeError::malformed(
                        "an image the change needs is absent",
                    ))
                }
            }
        };
        // With an image missing the index moves are unknown: say nothing
        // rather than guess.
        let indexes = if lacks.is_none() {
            let mut c = diff::index_changes(&self.indexes, old, new);
            c.extend(diff::vector_changes(&self.metas, old, new));
            c
        } else {
            Vec::new()
        };
        Ok(Change {
            kind,
            indexes,
            keys: r.keys.clone(),
            sequence_number: r.sequence_number.clone(),
            shard_id: r.shard_id.clone(),
            event_id: r.event_id.clone(),
            table: r.table.clone(),
            created_at: r.created_at,
        })
    }

    fn typed(
        &self,
        image: Image,
        item: Option<&Item>,
        kind: &Option<(String, Option<&'static EntityMeta>)>,
    ) -> Result<Option<T>, ChangeError> {
        match (item, kind) {
            (Some(item), Some((_, Some(meta)))) => self.decode_image(image, item, meta).map(Some),
            _ => Ok(None),
        }
    }
}
