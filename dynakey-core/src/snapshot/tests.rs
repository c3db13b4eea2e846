use super::*;

/// The same table in each format dynakey wrote (see the fixtures' README).
const V1: &str = include_str!("../../fixtures/snapshot/v1/Helpdesk.schema");
const V2: &str = include_str!("../../fixtures/snapshot/v2/Helpdesk.schema");
const V3: &str = include_str!("../../fixtures/snapshot/v3/Helpdesk.schema");
/// A table whose entity has vector indexes, as format 2 (which recorded
/// none) and format 3 wrote it.
const DESK_V2: &str = include_str!("../../fixtures/snapshot/v2/Desk.schema");
const DESK_V3: &str = include_str!("../../fixtures/snapshot/v3/Desk.schema");

fn field<'a>(s: &'a Snapshot, entity: &str, name: &str) -> &'a Field {
    s.entities
        .iter()
        .find(|e| e.type_name == entity)
        .and_then(|e| e.fields.iter().find(|f| f.name == name))
        .unwrap_or_else(|| panic!("no field {entity}.{name}"))
}

#[test]
fn v2_round_trips_and_holds_forms_and_values() {
    let s = parse(V2).unwrap();
    assert_eq!(s.version, 2);
    assert_eq!(write(&s), V2);
    assert_eq!(s.table, "Helpdesk");
    assert_eq!(s.entities.len(), 2);
    assert_eq!(field(&s, "Ticket", "expires_at").form, Some(Form::Ttl));
    assert_eq!(field(&s, "Ticket", "opened_at").form, Some(Form::Own));
    let values: Vec<_> = field(&s, "Ticket", "status")
        .shape
        .iter()
        .flatten()
        .map(|b| b.what.clone())
        .collect();
    assert_eq!(
        values,
        ["Open", "Pending", "Closed"].map(|v| What::Value(v.into()))
    );
    assert_eq!(field(&s, "Ticket", "subject").shape, Some(Vec::new()));
    let gsi = &s.entities[0].indexes[0];
    assert_eq!(
        gsi.key_pair().1.map(|k| k.template),
        Some("OPENED#<opened_at>".to_owned())
    );
}

#[test]
fn v1_reads_with_what_it_did_not_record_unknown() {
    let s = parse(V1).unwrap();
    assert_eq!(s.version, 1);
    assert_eq!(write(&s), V1, "v1 round trips in its own format");
    for e in &s.entities {
        for f in &e.fields {
            assert_eq!(f.form, None, "{}.{}", e.type_name, f.name);
            assert_eq!(f.shape, None, "{}.{}", e.type_name, f.name);
        }
    }
    // What v1 recorded is read as v2 reads it.
    assert!(field(&s, "Ticket", "assignee").optional);
    assert!(field(&s, "Agent", "on_call").default);
    assert_eq!(
        s.entities[0].sk.as_ref().unwrap().template,
        "TICKET#<number:d6>"
    );
}

#[test]
fn the_v2_facts_as_v1_knew_them_are_v1s() {
    let (v1, v2) = (parse(V1).unwrap(), parse(V2).unwrap());
    assert_ne!(v1, v2);
    assert_eq!(v2.as_known_by(&v1), v1);
    // And nothing v1 left unknown strands a stored item.
    assert!(stranded(&v1, &v2).is_empty());
}

#[test]
fn an_unversioned_file_with_later_facts_keeps_them_and_the_rest_unknown() {
    let text = V1.replace(
        "\"expires_at\" OffsetDateTime\n",
        "\"expires_at\" OffsetDateTime ttl\n",
    );
    let s = parse(&text).unwrap();
    assert_eq!(s.version, 1);
    assert_eq!(field(&s, "Ticket", "expires_at").form, Some(Form::Ttl));
    assert_eq!(field(&s, "Ticket", "opened_at").form, None);
}

#[test]
fn a_newer_or_broken_version_line_is_refused() {
    let newer = V3.replacen("dynakey-schema 3", "dynakey-schema 4", 1);
    let err = parse(&newer).unwrap_err();
    assert!(
        err.contains("format 4") && err.contains("newer dynakey"),
        "{err}"
    );
    let err = parse(&V2.replacen("dynakey-schema 2", "dynakey-schema two", 1)).unwrap_err();
    assert!(err.starts_with("line 1:"), "{err}");
    let err = parse(&V2.replace(" ttl\n", " epoch\n")).unwrap_err();
    assert!(err.contains("an unknown word on a field's line"), "{err}");
    let err = parse("table T\n\nentity A\n  key pk \"A\n").unwrap_err();
    assert_eq!(err, "line 4: an unclosed `\"`: \"  key pk \\\"A\"");
}

#[test]
fn native_indexes_and_members_round_trip() {
    let text = "dynakey-schema 2\n# dynakey schema snapshot of table `T`: compared with the code at compile\n# time (a change that strands stored items is DYNA501-DYNA506 unless a migration\n# covers it). Rewrite it with `DYNAKEY_SCHEMA=overwrite cargo test` and review the diff.\ntable T\n\nentity A\n  discriminator \"A\" in \"_type\"\n  key pk \"A#<id>\"\n  index ByRegion global native sparse\n    native pk tenant region\n    native sk status\n  index L local\n    key lsi1sk \"<id>\"\n  field id \"id\" String\n  field at \"at\" Option<Address> optional\n    member street \"street\" String\n    member kind \"kind\" Kind\n      value \"home\"\n    member next \"next\" Option<Address> optional\n      recursive\n    member zip \"zip\" String\n";
    let s = parse(text).unwrap();
    assert_eq!(write(&s), text);
    let (pk, sk) = s.entities[0].indexes[0].key_pair();
    assert_eq!(pk.unwrap().template, "pk(tenant, region)");
    assert_eq!(sk.unwrap().template, "sk(status)");
    let shape = field(&s, "A", "at").shape.clone().unwrap();
    assert_eq!(shape.len(), 4, "{shape:?}");
    assert_eq!(shape[1].under[0].what, What::Value("home".into()));
    assert_eq!(shape[1].under[0].line, 19);
    assert_eq!(shape[2].under[0].what, What::Recursive);
}

const OLD: &str = "table T\n\nentity Book\n  discriminator \"BOOK\" in \"_type\"\n  key pk \"BOOK#<id>\"\n  field id \"id\" String\n  field genre \"genre\" Genre\n    value \"kids\"\n    value \"adult\"\n  field at \"at\" Option<Address> optional\n    member street \"street\" String\n    member zip \"zip\" Option<String> optional\n";

fn strands(old: &str, new: &str) -> Vec<String> {
    // Unversioned, with the lines below fields: read as recorded, with
    // the line numbers of the text.
    let old = parse(old).unwrap();
    let new = parse(new).unwrap();
    stranded(&old, &new)
        .iter()
        .map(ToString::to_string)
        .collect()
}

#[test]
fn a_new_value_or_optional_member_strands_nothing() {
    let new = OLD
        .replace(
            "    value \"adult\"\n",
            "    value \"adult\"\n    value \"teen\"\n",
        )
        .replace(
            "Option<String> optional\n",
            "Option<String> optional\n    member floor \"floor\" Option<u8> optional\n",
        );
    assert!(strands(OLD, &new).is_empty(), "{:?}", strands(OLD, &new));
    assert!(strands(OLD, OLD).is_empty());
    let optional = OLD.replace(
        "member street \"street\" String",
        "member street \"street\" Option<String> optional",
    );
    assert!(
        strands(OLD, &optional).is_empty(),
        "{:?}",
        strands(OLD, &optional)
    );
}

#[test]
fn a_renamed_value_a_retyped_member_and_a_new_required_member_strand_items() {
    let new = OLD
        .replace("value \"kids\"", "value \"children\"")
        .replace(
            "member street \"street\" String",
            "member street \"street\" u32",
        )
        .replace(
            "Option<String> optional\n",
            "Option<String> optional\n    member floor \"floor\" u8\n",
        );
    let lost = strands(OLD, &new);
    assert_eq!(lost.len(), 3, "{lost:?}");
    assert!(
        lost[0].contains("Book.genre: `value \"kids\"` (line 8 of the snapshot)"),
        "{lost:?}"
    );
    assert!(
        lost[1].contains("Book.at: `member street \"street\" String`"),
        "{lost:?}"
    );
    assert!(
        lost[2].contains("Book.at: `member floor \"floor\" u8`: a new required member"),
        "{lost:?}"
    );
}

#[test]
fn v3_round_trips_and_holds_the_facts_v2_held() {
    let (v2, v3) = (parse(V2).unwrap(), parse(V3).unwrap());
    assert_eq!(v3.version, 3);
    assert_eq!(write(&v3), V3);
    assert!(V3.starts_with("dynakey-schema 3\n"));
    // The same facts, and now an entity without vector indexes says so.
    assert_eq!(v3.entities[0].fields, v2.entities[0].fields);
    assert_eq!(v2.entities[0].vectors, None);
    assert_eq!(v3.entities[0].vectors, Some(Vec::new()));
    assert_eq!(v2.upgraded(), v3);
    assert_eq!(write(&v2.upgraded()), V3);
}

#[test]
fn a_vector_index_is_one_line_of_every_fact() {
    let s = parse(DESK_V3).unwrap();
    assert_eq!(write(&s), DESK_V3);
    let vectors = s.entities[0].vectors.as_ref().unwrap();
    assert_eq!(
        vectors[0],
        Vector {
            name: "BySimilar".into(),
            attr: "embedding".into(),
            dimensions: 4,
            distance: "COSINE".into(),
            scope: vec!["tenant".into()],
            filters: vec!["status".into()],
            projection: Projection::Include(vec!["title".into()]),
        }
    );
    assert_eq!(vectors[1].projection, Projection::KeysOnly);
    assert!(vectors[1].scope.is_empty() && vectors[1].filters.is_empty());
    // Names are quoted, so one that reads as a keyword is still a name.
    let odd = Vector {
        name: "V".into(),
        attr: "a b".into(),
        dimensions: 1,
        distance: "EUCLIDEAN".into(),
        scope: vec!["filter".into()],
        filters: vec!["scope".into(), "projection".into()],
        projection: Projection::Include(vec!["ALL".into()]),
    };
    let mut t = s.clone();
    t.entities[0].vectors = Some(vec![odd.clone()]);
    let text = write(&t);
    assert!(
        text.contains("  vector V \"a b\" 1 EUCLIDEAN scope \"filter\" filter \"scope\" \"projection\" projection INCLUDE \"ALL\"\n"),
        "{text}"
    );
    assert_eq!(parse(&text).unwrap().entities[0].vectors, Some(vec![odd]));
}

#[test]
fn a_broken_vector_line_names_its_line() {
    for (from, to, n, says) in [
        (
            " 4 COSINE scope",
            " four COSINE scope",
            11,
            "dimensions that are not a number",
        ),
        (
            "projection KEYS_ONLY",
            "projection SOME",
            12,
            "an unknown word",
        ),
        (
            "projection KEYS_ONLY",
            "projection",
            12,
            "a `projection` without",
        ),
        (
            "COSINE scope \"tenant\"",
            "COSINE \"tenant\"",
            11,
            "an attribute name after no",
        ),
        (
            " \"embedding\" 4 DOT_PRODUCT projection KEYS_ONLY",
            "",
            12,
            "without its name",
        ),
    ] {
        let text = DESK_V3.replacen(from, to, 1);
        assert_ne!(text, DESK_V3, "{from}");
        let err = parse(&text).unwrap_err();
        assert!(
            err.starts_with(&format!("line {n}: ")) && err.contains(says),
            "{from}: {err}"
        );
    }
}

/// Format 2 recorded no vector index: the code's facts as it knew them
/// have none, whatever the code declares, so none is a change.
#[test]
fn a_format_2_file_says_nothing_of_vector_indexes() {
    let (v2, v3) = (parse(DESK_V2).unwrap(), parse(DESK_V3).unwrap());
    assert_eq!(v2.entities[0].vectors, None);
    assert_eq!(v3.as_known_by(&v2), v2);
    assert_eq!(write(&v3.as_known_by(&v2)), DESK_V2);
    assert!(stranded(&v2, &v3).is_empty());
    // A format 3 file that knows them differs from a change of one.
    let eight =
        parse(&DESK_V3.replacen("\"embedding\" 4 COSINE", "\"embedding\" 8 COSINE", 1)).unwrap();
    assert_ne!(eight.as_known_by(&v3), v3);
    assert_eq!(eight.entities[0].vectors.as_ref().unwrap()[0].dimensions, 8);
}
