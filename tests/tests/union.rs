//! `#[derive(DynamoUnion)]`: items of several types from one partition,
//! each decoded as its own type by the discriminator.

use dynakey::{DynamoUnion, Entity, EntityUnion, Error};
use dynakey_tests::seeds::{Member, Membership, Team};

#[derive(DynamoUnion, Debug, PartialEq)]
enum UserPartition {
    Member(Member),
    Membership(Membership),
}

#[test]
fn decodes_each_item_as_its_type() {
    let m = Member {
        user_id: "alice".into(),
        name: "Alice".into(),
    };
    let ms = Membership {
        user_id: "alice".into(),
        group_id: "staff".into(),
    };
    let decoded: Vec<UserPartition> = [ms.to_item().unwrap(), m.to_item().unwrap()]
        .iter()
        .map(|i| UserPartition::from_item(i).unwrap())
        .collect();
    assert_eq!(
        decoded,
        [UserPartition::Membership(ms), UserPartition::Member(m)]
    );
    let names: Vec<&str> = decoded
        .iter()
        .map(|p| match p {
            UserPartition::Member(m) => m.name.as_str(),
            UserPartition::Membership(ms) => ms.group_id.as_str(),
        })
        .collect();
    assert_eq!(names, ["staff", "Alice"]);
    assert_eq!(UserPartition::VARIANTS.len(), 2);
}

#[test]
fn unknown_discriminator_is_a_typed_error() {
    let team = Team {
        group_id: "staff".into(),
        title: "Staff".into(),
    };
    match UserPartition::from_item(&team.to_item().unwrap()) {
        Err(Error::UnknownDiscriminator { value, .. }) => assert_eq!(value, "TEAM"),
        other => panic!("{other:?}"),
    }
}
