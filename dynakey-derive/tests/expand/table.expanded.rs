// size: 482 tokens, 45 lines

// #[derive(DynamoTable)] on `Shop`: 482 tokens, 45 lines

#[automatically_derived]
impl Shop {
    #[doc = "The entities of table `Shop`, checked against each other at compile time."]
    pub const ENTITIES: &'static[&'static::dynakey::__private::EntityMeta] = &[<Member as ::dynakey::__private::Entity>::META, <Team as ::dynakey::__private::Entity>::META];
    #[doc = r" Where the table's schema snapshot is kept."]
    pub const SCHEMA_PATH: &'static str = "$CARGO_MANIFEST_DIR/dynakey/Shop.schema";
    #[doc = r" The table's schema as the code says it now, in the snapshot's"]
    #[doc = r" format."]
    pub fn schema() -> ::dynakey::__private::String {
        ::dynakey::__private::schema::render("Shop", Self::ENTITIES)
    }
    #[doc = r" Compares the committed snapshot with the code (`Err` says how"]
    #[doc = r" they differ, or that there is none yet); with"]
    #[doc = r" `DYNAKEY_SCHEMA=overwrite` in the environment, writes it"]
    #[doc = r" instead. Call it from a test so CI flags a stale snapshot."]
    pub fn check_schema() -> ::dynakey::__private::Result<(), ::dynakey::__private::String> {
        ::dynakey::__private::schema::check_file(::std::path::Path::new(Self::SCHEMA_PATH), &Self::schema())
    }
    #[doc = "What the code of table `Shop` needs of the table beyond its entities: the stream it consumes (`#[dynamo(stream = ..)]`). Add the production settings to it; `create_table_with`, `verify_table_with` and the exports take it."]
    pub fn options() -> ::dynakey::table::TableOptions {
        <::dynakey::table::TableOptions as ::dynakey::__private::Default>::default()
    }
}
::dynakey::__private::if_export! {
    #[automatically_derived]
    impl Shop {
        #[doc = r" The CloudFormation template of the table, named `name`,"]
        #[doc = r" with `options` (start from `Self::options()`). Feature `export`."]
        pub fn cloudformation(name: &str, options: &::dynakey::table::TableOptions,) -> ::dynakey::__private::Result<::dynakey::table::export::CloudFormation, ::dynakey::__private::Error> {
            ::dynakey::table::export::cloudformation(name, Self::ENTITIES, options)
        }
        #[doc = r" The Terraform (`.tf.json`) document of the table, named"]
        #[doc = r" `name`, with `options` (start from `Self::options()`)."]
        #[doc = r" Feature `export`."]
        pub fn terraform(name: &str, options: &::dynakey::table::TableOptions,) -> ::dynakey::__private::Result<::dynakey::table::export::Terraform, ::dynakey::__private::Error> {
            ::dynakey::table::export::terraform(name, Self::ENTITIES, options)
        }
    }
}
Member! {
    @ table {
        name(Shop) krate(::dynakey) entities(Member, Team)
    }
    [Team]
}
