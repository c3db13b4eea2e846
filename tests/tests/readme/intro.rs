//! The README's first example: keys, a sort-key condition and a parser.

#[rustfmt::skip]
#[test]
fn keys_conditions_and_parsers() -> Result<(), Box<dyn std::error::Error>> {
// README: the opening example.
use dynakey::DynamoEntity;

#[derive(DynamoEntity)]
#[dynamo(entity = "EMPLOYEE")]
#[pk("ORG#<org>")]
#[sk("SITE#<country>#<city>#EMP#<number:d6>")]
pub struct Employee { org: String, country: String, city: String, number: u32 }

let key = Employee::key("acme", "CH", "Zurich", 42u32)?;          // ORG#acme / SITE#CH#Zurich#EMP#000042
let zurich = Employee::sk().country("CH").city("Zurich").begins_with()?;
let (country, city, number) = Employee::parse_sk("SITE#CH#Zurich#EMP#000042")?;
// End of the README's example.

    assert_eq!(key.pk(), "ORG#acme");
    assert_eq!(key.sk(), Some("SITE#CH#Zurich#EMP#000042"));
    match zurich.op() {
        dynakey::SortKeyOp::BeginsWith(p) => assert!(p.starts_with("SITE#CH#Zurich#"), "{p}"),
        other => panic!("{other:?}"),
    }
    assert_eq!((country.as_str(), city.as_str(), number), ("CH", "Zurich", 42));
    let _ = Employee { org: String::new(), country, city, number };
    Ok(())
}
