//! Seed 000 "Adjacency list and inverted index" (and seed 001 "Adjacency
//! list"): users, teams and memberships in one table. A user's partition
//! holds the profile and the user's memberships; GSI1 reverses the edge, so
//! a team's index partition holds the team and a membership per member.

use std::fmt;

use dynakey::{Db, DynamoUnion, Entity, Error};

use crate::meter::{Meter, Usage};
use crate::report::{Printout, Table};
use crate::seeds::{Member, Membership, Team};

super::recipe!(
    "adjacency",
    "000 Adjacency list and inverted index; 001 Adjacency list",
    "a user's partition holds profile + memberships; GSI1 walks from a team to its members"
);

/// What a user's partition holds.
#[derive(DynamoUnion, Debug, Clone, PartialEq)]
pub enum UserPartition {
    /// The profile (`PROFILE`).
    Member(Member),
    /// An outgoing edge (`GROUP#<group_id>`).
    Membership(Membership),
}

/// What a team's GSI1 partition holds.
#[derive(DynamoUnion, Debug, Clone, PartialEq)]
pub enum GroupPartition {
    /// The team (`INFO`).
    Team(Team),
    /// An incoming edge (`USER#<user_id>`).
    Membership(Membership),
}

/// What the recipe read.
#[derive(Debug, Clone, PartialEq)]
pub struct Report {
    /// `USER#alice`, every type, in sort-key order.
    pub alice: Vec<UserPartition>,
    /// GSI1 `GROUP#staff`, every type, in sort-key order.
    pub staff: Vec<GroupPartition>,
    /// Alice's groups: a typed query narrowed by `begins_with(sk, "GROUP#")`.
    pub alice_groups: Vec<String>,
    /// Staff's members: GSI1 narrowed by `begins_with(gsi1sk, "USER#")`.
    pub staff_members: Vec<String>,
    /// A typed query of memberships without a sort-key condition: the
    /// profile is read (and paid for) and filtered out.
    pub typed_unfiltered: Usage,
    /// The same with the sort-key prefix: only memberships are read.
    pub typed_prefixed: Usage,
}

/// Creates the table.
pub async fn setup(db: &Db) -> Result<(), Error> {
    db.create_table(&[Member::META, Membership::META, Team::META])
        .await
}

fn member(user_id: &str, name: &str) -> Member {
    Member {
        user_id: user_id.into(),
        name: name.into(),
    }
}

fn edge(user_id: &str, group_id: &str) -> Membership {
    Membership {
        user_id: user_id.into(),
        group_id: group_id.into(),
    }
}

fn team(group_id: &str, title: &str) -> Team {
    Team {
        group_id: group_id.into(),
        title: title.into(),
    }
}

/// Writes alice, bob, the teams staff and admins and three memberships,
/// then reads both directions.
pub async fn run(db: &Db) -> Result<Report, Error> {
    db.batch_write()
        .put(&member("alice", "Alice"))
        .put(&member("bob", "Bob"))
        .put(&team("staff", "Staff"))
        .put(&team("admins", "Admins"))
        .put(&edge("alice", "staff"))
        .put(&edge("alice", "admins"))
        .put(&edge("bob", "staff"))
        .send()
        .await?;

    let alice = db
        .query(Member::pk("alice")?)
        .of::<UserPartition>()
        .all()
        .await?;
    let staff = db
        .query(Team::gsi1_pk("staff")?)
        .of::<GroupPartition>()
        .all()
        .await?;
    let alice_groups = db
        .query(Membership::pk("alice")?)
        .sk(Membership::sk().begins_with()?)
        .all()
        .await?
        .into_iter()
        .map(|m| m.group_id)
        .collect();
    let staff_members = db
        .query(Membership::gsi1_pk("staff")?)
        .sk(Membership::gsi1_sk().begins_with()?)
        .all()
        .await?
        .into_iter()
        .map(|m| m.user_id)
        .collect();

    let (metered, meter) = Meter::attach(db);
    metered.query(Membership::pk("alice")?).all().await?;
    let typed_unfiltered = meter.take();
    metered
        .query(Membership::pk("alice")?)
        .sk(Membership::sk().begins_with()?)
        .all()
        .await?;
    let typed_prefixed = meter.take();

    Ok(Report {
        alice,
        staff,
        alice_groups,
        staff_members,
        typed_unfiltered,
        typed_prefixed,
    })
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut p = Printout::new();
        let mut t = Table::new(
            "query pk = USER#alice, read as Member | Membership (GROUP# sorts before PROFILE)",
            ["type", "value"],
        );
        for i in &self.alice {
            match i {
                UserPartition::Member(m) => t.push(["Member", &m.name]),
                UserPartition::Membership(m) => t.push(["Membership", &m.group_id]),
            }
        }
        p.table(t);
        let mut t = Table::new(
            "query GSI1 gsi1pk = GROUP#staff, read as Team | Membership",
            ["type", "value"],
        );
        for i in &self.staff {
            match i {
                GroupPartition::Team(x) => t.push(["Team", &x.title]),
                GroupPartition::Membership(m) => t.push(["Membership", &m.user_id]),
            }
        }
        p.table(t);
        p.note(format!(
            "alice's groups (begins_with GROUP#): {:?}",
            self.alice_groups
        ));
        p.note(format!(
            "staff's members (GSI1 begins_with USER#): {:?}",
            self.staff_members
        ));
        p.table(
            Table::new(
                "typed Membership query of USER#alice: what DynamoDB reads",
                [
                    "sort-key condition",
                    "requests",
                    "returned",
                    "read (ScannedCount)",
                    "capacity",
                ],
            )
            .row(usage_row("none (type filter)", &self.typed_unfiltered))
            .row(usage_row("begins_with GROUP#", &self.typed_prefixed)),
        );
        p.fmt(f)
    }
}

/// A table row of a [`Usage`]: label, requests, returned, read, capacity.
pub(crate) fn usage_row(label: &str, u: &Usage) -> [String; 5] {
    [
        label.to_owned(),
        u.requests.to_string(),
        u.count.to_string(),
        u.scanned.to_string(),
        u.capacity_text(),
    ]
}
