use super::*;

/// The same table in each format dynakey wrote (see the fixtures' README).
const V1: &str = include_str!("../../fixtures/snapshot/v1/Helpdesk.schema");
const V2: &str = include_str!("../../fixtures/snapshot/v2/Helpdesk.schema");

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
    let newer = V2.replacen("dynakey-schema 2", "dynakey-schema 3", 1);
    let err = parse(&newer).unwrap_err();
    assert!(
        err.contains("format 3") && err.contains("newer dynakey"),
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
