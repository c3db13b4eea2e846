//! The facts behind typed updates: which index keys an update maintains,
//! which fields it must carry to rebuild them (DYNA226), which fields a new
//! item needs (DYNA228), and which keys share inputs (one setter sets such
//! a group at once).

use crate::model::{dedup, Entity, Field, KeyGroup, MaintainedKey, UpdateModel};
use crate::types;

/// Whether a new item needs this field: reading an item without it fails
/// (a timestamp the runtime writes, and a field with a default, are not
/// needed from the update).
pub fn required(f: &Field) -> bool {
    !(f.skip()
        || f.version()
        || f.optional
        || f.omit_empty()
        || f.stamp.is_some()
        || f.default.is_some()
        || f.synthetic
        || types::is_set(&f.inner))
}

pub fn model(e: &Entity) -> UpdateModel {
    let table_key = dedup(e.pk.fields().chain(e.sk.iter().flat_map(|k| k.fields())));
    let mut keys = Vec::new();
    for (n, ix) in e.indexes.iter().enumerate() {
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
        e.indexes
            .iter()
            .flat_map(|ix| ix.written_keys())
            .flat_map(|k| k.fields()),
    );
    let kept = table_key
        .iter()
        .copied()
        .filter(|f| inputs.contains(f))
        .collect();
    let slots = dedup(keys.iter().flat_map(|k| k.open.iter().copied()));
    let required: Vec<usize> = (0..e.fields.len())
        .filter(|i| !table_key.contains(i) && required(&e.fields[*i]))
        .collect();
    let mut tracked = dedup(
        keys.iter()
            .filter(|k| k.open.len() >= 2)
            .flat_map(|k| k.open.iter().copied())
            .chain(required.iter().copied()),
    );
    tracked.sort_unstable();
    let groups = groups(&keys);
    UpdateModel {
        table_key,
        keys,
        kept,
        slots,
        tracked,
        required,
        groups,
    }
}

/// The keys with two or more open inputs, joined while they share one:
/// setting every input of a group rebuilds each of its keys, so that
/// setter is complete whatever else the update does.
fn groups(keys: &[MaintainedKey]) -> Vec<KeyGroup> {
    let mut groups: Vec<KeyGroup> = Vec::new();
    for (i, k) in keys.iter().enumerate().filter(|(_, k)| k.open.len() >= 2) {
        let mut joined = KeyGroup {
            keys: vec![i],
            fields: k.open.clone(),
        };
        // Absorb every earlier group that shares an input with this key.
        let mut n = 0;
        while n < groups.len() {
            if groups[n].fields.iter().any(|f| joined.fields.contains(f)) {
                let g = groups.remove(n);
                let mut fields = g.fields;
                for f in joined.fields {
                    if !fields.contains(&f) {
                        fields.push(f);
                    }
                }
                let mut ks = g.keys;
                ks.extend(joined.keys);
                joined = KeyGroup { keys: ks, fields };
            } else {
                n += 1;
            }
        }
        groups.push(joined);
    }
    groups
}
