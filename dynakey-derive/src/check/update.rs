//! The facts behind typed updates: which index keys an update maintains,
//! which fields it must carry to rebuild them (DYNA226), and which fields a
//! new item needs (DYNA228).

use crate::model::{dedup, Field, IndexModel, KeyModel, MaintainedKey, UpdateModel};
use crate::types;

/// Whether a new item needs this field: decoding an item without it fails
/// (a timestamp the runtime writes is not needed from the update).
pub fn required(f: &Field) -> bool {
    !(f.skip()
        || f.version()
        || f.optional
        || f.omit_empty()
        || f.stamp.is_some()
        || types::is_set(&f.inner))
}

pub fn model(
    fields: &[Field],
    pk: &KeyModel,
    sk: Option<&KeyModel>,
    indexes: &[IndexModel],
) -> UpdateModel {
    let table_key = dedup(pk.fields().chain(sk.iter().flat_map(|k| k.fields())));
    let mut keys = Vec::new();
    for (n, ix) in indexes.iter().enumerate() {
        for k in ix.written_keys() {
            keys.push(MaintainedKey {
                index: n,
                sort: !std::ptr::eq(k, &ix.pk),
                sparse: ix.sparse,
                open: k
                    .distinct_fields()
                    .into_iter()
                    .filter(|f| !table_key.contains(f))
                    .collect(),
            });
        }
    }
    let inputs = dedup(
        indexes
            .iter()
            .flat_map(|ix| ix.written_keys())
            .flat_map(|k| k.fields()),
    );
    let kept = table_key
        .iter()
        .copied()
        .filter(|f| inputs.contains(f))
        .collect();
    let slots = dedup(
        keys.iter()
            .flat_map(|k: &MaintainedKey| k.open.iter().copied()),
    );
    let required: Vec<usize> = (0..fields.len())
        .filter(|i| !table_key.contains(i) && required(&fields[*i]))
        .collect();
    let mut tracked = dedup(
        keys.iter()
            .filter(|k| k.open.len() >= 2)
            .flat_map(|k| k.open.iter().copied())
            .chain(required.iter().copied()),
    );
    tracked.sort_unstable();
    UpdateModel {
        table_key,
        keys,
        kept,
        slots,
        tracked,
        required,
    }
}
