//! A key parser reads exactly what the writer writes: `parse_*(s)`
//! succeeds only when writing the parsed fields gives back `s`, so a key
//! DynamoDB cannot hold (over 2,048 bytes for a partition key, 1,024 for a
//! sort key) or a text the writer would not write is refused with a typed
//! error, by the same checks the writer makes. And a put of an over-long
//! key names the key's real role.

use dynakey::prelude::*;
use dynakey::{Error, KeyFormatReason, KeyRole};
use proptest::prelude::*;

#[derive(DynamoEntity, Debug, Clone, PartialEq)]
#[dynamo(entity = "DOC")]
#[pk("ORG#<org>")]
#[sk("DOC#<name>#<rev:d4>#<delta:n3>")]
#[gsi("GSI1", pk = "OWNER#<owner>", sk = "AT#<at>")]
struct Doc {
    org: String,
    name: String,
    rev: u32,
    delta: i32,
    owner: String,
    at: time::Date,
}

/// What the writer writes after the name for `rev` 1 and `delta` 1.
fn suffix() -> String {
    Doc::key("o", "x", 1, 1).unwrap().sk().unwrap()["DOC#x".len()..].to_owned()
}

fn too_long(r: Result<impl std::fmt::Debug, dynakey::KeyFormatError>, role: KeyRole, size: usize) {
    match r {
        Err(e) => assert_eq!(e.reason, KeyFormatReason::TooLong { role, size }, "{e}"),
        Ok(v) => panic!("{v:?} was read from a key of {size} bytes"),
    }
}

#[test]
fn the_issue_s_900_kb_key_is_refused_as_the_writer_refuses_its_fields() {
    let org = "a".repeat(900 * 1024);
    let key = format!("ORG#{org}");
    too_long(Doc::parse_pk(&key), KeyRole::Partition, key.len());
    too_long(
        Doc::pk(org.as_str()).map(|_| ()),
        KeyRole::Partition,
        key.len(),
    );
    // At the limits: read and written.
    let org = "a".repeat(2048 - 4);
    assert_eq!(Doc::parse_pk(&format!("ORG#{org}")).unwrap(), (org,));
    let sk = format!("DOC#{}{}", "n".repeat(1024 - 4 - suffix().len()), suffix());
    assert_eq!(sk.len(), 1024);
    assert!(Doc::parse_sk(&sk).is_ok());
    let over = format!("DOC#{}{}", "n".repeat(1025 - 4 - suffix().len()), suffix());
    too_long(Doc::parse_sk(&over), KeyRole::Sort, 1025);
    // An index's sort key is a sort key too.
    let at = format!("AT#{}", "x".repeat(1100));
    too_long(Doc::parse_gsi1_sk(&at), KeyRole::Sort, at.len());
}

#[tokio::test]
async fn a_put_of_an_over_long_key_names_the_key_s_role() {
    let backend = dynakey::local::from_env().unwrap();
    let db = backend.db(format!("key_parsing_{}", uuid::Uuid::new_v4().simple()));
    db.create_table(&[Doc::META]).await.unwrap();
    let doc = Doc {
        org: "acme".into(),
        name: "n".into(),
        rev: 1,
        delta: -2,
        owner: "ann".into(),
        at: time::macros::date!(2026 - 07 - 16),
    };
    for (d, role, field) in [
        (
            Doc {
                org: "o".repeat(2100),
                ..doc.clone()
            },
            KeyRole::Partition,
            "org",
        ),
        (
            Doc {
                name: "n".repeat(1100),
                ..doc.clone()
            },
            KeyRole::Sort,
            "name",
        ),
        (
            Doc {
                owner: "w".repeat(2100),
                ..doc.clone()
            },
            KeyRole::Partition,
            "owner",
        ),
    ] {
        match db.put(&d).await {
            Err(Error::KeyFormat(e)) => {
                assert_eq!(e.field, field, "{e}");
                assert!(
                    matches!(e.reason, KeyFormatReason::TooLong { role: r, .. } if r == role),
                    "{e}"
                );
            }
            other => panic!("{field}: {other:?}"),
        }
    }
    db.put(&doc).await.unwrap();
}

fn field_text() -> impl Strategy<Value = String> {
    // The delimiter, the escape, characters below them, and wide ones.
    prop::collection::vec(
        prop::sample::select(vec![
            "a",
            "#",
            "%",
            "!",
            "\u{1}",
            "é",
            "日",
            "\u{10FFFF}",
            "Z",
        ]),
        1..12,
    )
    .prop_map(|v| v.concat())
}

proptest! {
    /// parse ∘ write is the identity on the fields, write ∘ parse on the
    /// text; and any text that parses writes back to itself.
    #[test]
    fn keys_round_trip_and_parse_only_what_writes_back(
        name in field_text(),
        rev in 0u32..10_000,
        delta in -99i32..1000,
        junk in "[#%0-9a-fA-F+\\-]{0,6}",
        cut in 0usize..40,
    ) {
        if let Ok(k) = Doc::key("o", name.as_str(), rev, delta) {
            let sk = k.sk().unwrap().to_owned();
            prop_assert_eq!(Doc::parse_sk(&sk).unwrap(), (name.clone(), rev, delta));
            // Any altered text parses only if it writes back to itself.
            let mut altered = sk.clone();
            let at = altered.char_indices().map(|(i, _)| i).nth(cut % sk.chars().count()).unwrap();
            altered.insert_str(at, &junk);
            if let Ok((n, r, d)) = Doc::parse_sk(&altered) {
                let again = Doc::key("o", n.as_str(), r, d).unwrap();
                prop_assert_eq!(again.sk().unwrap(), altered.as_str());
            }
        }
    }

    /// A key over the limit parses if and only if the writer writes it,
    /// and the refusal is the writer's.
    #[test]
    fn over_long_keys_are_refused_by_the_writer_s_rule(n in 1000usize..1100, c in prop::sample::select(vec!['a', '#', 'é'])) {
        let name: String = std::iter::repeat_n(c, n / c.len_utf8().max(1)).collect();
        let written = Doc::key("o", name.as_str(), 1, 1);
        let text = {
            let mut escaped = String::new();
            for ch in name.chars() {
                if ch == '#' { escaped.push_str("%23") } else { escaped.push(ch) }
            }
            format!("DOC#{escaped}{}", suffix())
        };
        match written {
            Ok(k) => {
                prop_assert_eq!(k.sk().unwrap(), text.as_str());
                prop_assert!(Doc::parse_sk(&text).is_ok());
            }
            Err(e) => {
                let parsed = Doc::parse_sk(&text).unwrap_err();
                prop_assert_eq!(&parsed.reason, &e.reason);
                prop_assert_eq!(parsed.reason, KeyFormatReason::TooLong { role: KeyRole::Sort, size: text.len() });
            }
        }
    }
}
