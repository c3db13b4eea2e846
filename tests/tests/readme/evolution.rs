//! The README's schema evolution (snapshot test, migrations) and design
//! view, on the shop table of the `schema_evolution` recipe. Its snapshot
//! is `tests/dynakey/Shop.schema`.

use dynakey::prelude::*;
use dynakey::schema::Migration;
use dynakey_examples::recipes::schema_evolution::{Order, OrderV1, User};

// README: "Changing a schema", the migrations.
#[rustfmt::skip]
mod table {
use super::*;
  pub const MIGRATIONS: &[Migration] = &[
      Migration::rekey::<OrderV1, Order>("orders-sk-d6"),      // move each old item (Order: From<OrderV1>)
      Migration::rename_attribute::<User>("users-mail-to-email", "mail", "email"),
      Migration::backfill::<User>("users-by-email"),           // write the keys of a new index
      Migration::fill_default::<User>("users-tier", "tier"),   // write the default into old items
      // Migration::drop_entity("sessions", "SESSION", "_type"),
  ];

  #[derive(DynamoTable)]
  #[dynamo(entities(Order, User), migrations = MIGRATIONS)]
  pub struct Shop;
}
use table::{Shop, MIGRATIONS};

// README: "Changing a schema", the snapshot test.
#[rustfmt::skip]
  #[test]
  fn schema_is_current() {
      Shop::check_schema().unwrap(); // Err says which line differs
  }

#[test]
fn the_migrations_are_named_and_ordered() {
    let names: Vec<&str> = MIGRATIONS.iter().map(|m| m.name()).collect();
    assert_eq!(
        names,
        [
            "orders-sk-d6",
            "users-mail-to-email",
            "users-by-email",
            "users-tier"
        ]
    );
}

#[rustfmt::skip]
async fn design_view(db: Db, profile: User, order: Order) -> Result<(), Box<dyn std::error::Error>> {
// README: "See the table".
use dynakey::design::TableDesign;

let design = TableDesign::from_metas("shop", Shop::ENTITIES)   // a #[derive(DynamoTable)], or .entity::<E>()
    .example(&profile)?                                         // real example keys and sample data
    .example(&order)?;
std::fs::write("shop.md", design.markdown())?;
std::fs::write("shop.html", design.html())?;
std::fs::write("shop.json", design.workbench())?;              // NoSQL Workbench: Import data model

let view = design.live(&db, 1000).await?;                      // a scanned sample of the table
for item in view.problems() {
    eprintln!("{} / {:?}: {:?}", item.pk, item.sk, item.status); // no entity, undecodable, drift
}
std::fs::write("shop-live.html", view.html())?;
// End of the README's example.
    assert_eq!(view.problems().count(), 0);
    Ok(())
}

#[tokio::test]
async fn the_design_view_writes_its_files() {
    let (_backend, db) = super::fresh(Shop::ENTITIES).await;
    let profile = User {
        customer: "ann".into(),
        email: "ann@example.com".into(),
        tier: "free".into(),
    };
    let order = Order {
        customer: "ann".into(),
        n: 7,
        total: 120,
    };
    db.put(&profile).await.unwrap();
    db.put(&order).await.unwrap();
    // The snippet writes into the working directory: make it a fresh one.
    // (Every other test of this binary uses absolute paths or none.)
    let dir = std::env::temp_dir().join(format!("dynakey-readme-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::env::set_current_dir(&dir).unwrap();
    design_view(db.clone(), profile, order).await.unwrap();
    for f in ["shop.md", "shop.html", "shop.json", "shop-live.html"] {
        let text = std::fs::read_to_string(dir.join(f)).unwrap();
        assert!(text.contains("ORDER"), "{f} names the entities");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
