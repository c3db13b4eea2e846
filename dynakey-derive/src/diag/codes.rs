// The one list of dynakey's diagnostics: every DYNA code, once, in order.
//
// This file is data, read with `include!` by two crates, each defining
// `codes!` for what it needs: the derive (`diag/mod.rs`) turns it into its
// `Code` enum, whose messages take their code and fix from here; the
// ui-tests crate's catalogue test (`ui-tests/tests/catalogue.rs`) turns it
// into a table it checks the UI cases, the runtime's trait messages and
// the catalogue page (`dynakey/src/guide/diagnostics.md`) against. A
// proc-macro crate can export nothing but macros, so the list lives in a
// file both include rather than in an item one of them exports.
//
// Each entry: `Name = number, where` with `where` `derive` (reported by the
// derive) or `runtime` (also the message of a runtime trait's
// `#[diagnostic::on_unimplemented]`, found when the bound is not met);
// then the title, what it checks, the fix (a message's help line when it
// has no more precise one) and a short example of the mistake.
codes! {
    TemplateSyntax = 100, derive {
        title: "template syntax",
        checks: "A key template that does not parse: an unclosed `<`, an empty placeholder, an unknown format, a raw identifier, or an attribute that is not one template string.",
        fix: "write placeholders as `<field>` or `<field:format>` with a known format (`d<w>`, `n<w>`, `n<w>.<p>`, `rev`, `path`)",
        example: "#[pk(\"USER#<user_id\")]",
    }
    UnknownField = 101, derive {
        title: "placeholder names no field",
        checks: "A placeholder or a native key names no field of the struct; the message suggests the closest name.",
        fix: "name a field of the struct (its Rust name, not a renamed attribute)",
        example: "#[pk(\"USER#<usr_id>\")] struct User { user_id: String }",
    }
    NotAKeyType = 102, runtime {
        title: "field type cannot be part of a key",
        checks: "A key template reads a field whose type has no key text (`KeyPart`): a float, a collection, a `serde` field, a type without the trait.",
        fix: "key on a string, integer, decimal, uuid, date, instant, bool or unit-enum field, or implement `KeyPart` for the type",
        example: "#[pk(\"P#<price>\")] struct Item { price: f64 }",
    }
    UnpaddedNumber = 103, derive {
        title: "number in a sort key without a fixed width",
        checks: "An integer in a sort key without `d<w>` (or a decimal without `n<w>.<p>`): as text, 10 would sort before 9.",
        fix: "give the number a width, as in `<n:d6>`, so its text sorts as the number does",
        example: "#[sk(\"ORDER#<n>\")] struct Order { n: u32 }",
    }
    PaddedDecimal = 104, derive {
        title: "`d<w>` on a decimal or float",
        checks: "The integer format `d<w>` on a decimal or float field.",
        fix: "write `n<w>.<p>` for a decimal (digits before and after the point)",
        example: "#[sk(\"P#<price:d6>\")] struct Item { price: Decimal }",
    }
    AmbiguousParts = 105, derive {
        title: "a key that cannot be parsed back",
        checks: "Two placeholders with no literal between them, or a `path` field that is not the template's last part: the key could not be split back into its fields.",
        fix: "put a literal delimiter between the placeholders, and a `path` field last",
        example: "#[sk(\"<a><b>\")]",
    }
    OptionalInput = 106, derive {
        title: "`Option` input in a non-sparse key, or a sparse index without one",
        checks: "An `Option` field in a key that every item has, or an index marked `sparse` none of whose inputs can be absent.",
        fix: "mark the index `sparse` (items without the value are left out of it), or make one of its inputs an `Option`",
        example: "#[gsi(\"GSI1\", pk = \"TEAM#<team>\")] struct M { team: Option<String> }",
    }
    FormatForType = 107, runtime {
        title: "format not valid for the field's type",
        checks: "A format the field's type cannot take (`d<w>` on a string, `rev` on a uuid, …); in generic code, the type's format trait bound.",
        fix: "use a format of the field's type, or none",
        example: "#[sk(\"N#<name:d4>\")] struct U { name: String }",
    }
    IndexNames = 108, derive {
        title: "duplicate index name, or two keys on one attribute",
        checks: "Two indexes of one name, two names alike in snake case (which would give the same functions), or two keys stored in one attribute.",
        fix: "give each index its own name, and its own attributes with `pk_attr = \"...\"` / `sk_attr = \"...\"`",
        example: "#[gsi(\"GSI1\", ..)] #[gsi(\"GSI1\", ..)]",
    }
    Shape = 109, derive {
        title: "missing key or discriminator, or an unsupported shape",
        checks: "An entity without `#[pk]` or discriminator, an index without its keys, a generic or tuple struct, a union of non-entities, a value enum with data.",
        fix: "derive on a concrete struct with named fields, with #[dynamo(entity = \"...\")] and a #[pk(\"...\")] template",
        example: "#[derive(DynamoEntity)] struct Point(u32, u32);",
    }
    FieldOnKeyAttribute = 110, derive {
        title: "a field stored under a key or discriminator attribute",
        checks: "A field whose attribute name is that of a key or of the discriminator, which the derive writes itself.",
        fix: "rename the attribute with #[dynamo(rename = \"...\")]",
        example: "#[pk(\"USER#<id>\")] struct U { id: String, pk: String }",
    }
    Limits = 111, derive {
        title: "over DynamoDB's limits",
        checks: "More than 20 global or 5 local indexes, or more than 16 fields in one key.",
        fix: "stay within DynamoDB's limits: overload one index for several access patterns",
        example: "21 × #[gsi(..)] on one entity",
    }
    Options = 112, derive {
        title: "unknown or misused attribute option",
        checks: "An unknown option of #[dynamo(..)], #[gsi(..)] or #[lsi(..)], one given twice, or options that cannot go together.",
        fix: "use the options the message lists, each once",
        example: "#[dynamo(entiy = \"USER\")]",
    }
    TimestampType = 113, derive {
        title: "a timestamp field of the wrong type or role",
        checks: "`created_at` / `updated_at` on a field that is not `OffsetDateTime` / `Option<OffsetDateTime>`, or that is also `ttl`, `serde`, …",
        fix: "declare the field `Option<time::OffsetDateTime>`: the runtime writes the time of the write",
        example: "#[dynamo(created_at)] created: String",
    }
    DuplicateTimestamp = 114, derive {
        title: "two `created_at` (or `updated_at`) fields",
        checks: "Two fields marked `created_at` (or `updated_at`), or one field marked both.",
        fix: "keep one field of each timestamp",
        example: "#[dynamo(created_at)] a: Option<OffsetDateTime>, #[dynamo(created_at)] b: Option<OffsetDateTime>",
    }
    DelimiterOrder = 115, derive {
        title: "a delimiter that does not sort below a field's text",
        checks: "A delimiter after a text field that does not sort below `0`, or a literal character below it: a longer value would sort inside a shorter one's range.",
        fix: "use `#` (or another character below `0`) as the delimiter after a text field",
        example: "#[sk(\"<name>_<n:d4>\")]",
    }
    TimestampInKey = 116, derive {
        title: "a timestamp field in a key template",
        checks: "A `created_at` / `updated_at` field in a key: the key is built before the write sets the time.",
        fix: "key on another field (a v7 uuid sorts by creation time), or drop the marker and set the field yourself",
        example: "#[sk(\"AT#<created>\")] #[dynamo(created_at)] created: Option<OffsetDateTime>",
    }
    Unique = 117, derive {
        title: "`unique` on a field without one text per value",
        checks: "`unique` on a type without one stored text per value (a float, a list, …), on a `serde`/`ttl`/… field, or on a table-key field.",
        fix: "mark a string, integer, uuid, date, instant or bool field unique (or keep a normalized string beside it)",
        example: "#[dynamo(unique)] score: f64",
    }
    Projection = 118, derive {
        title: "an index projection that is not `ALL`, `KEYS_ONLY` or `INCLUDE(..)`",
        checks: "An index `projection` that is none of the three, or an `INCLUDE` of no stored field.",
        fix: "write projection = \"KEYS_ONLY\", or projection = \"INCLUDE(title, status)\" with the fields to copy into the index",
        example: "#[gsi(\"GSI1\", pk = \"..\", projection = \"SOME\")]",
    }
    ProjectionField = 119, runtime {
        title: "a projection field of another type than the entity's",
        checks: "A `DynamoProjection` field whose type is not the entity field's, or an `Option` of it (a name the entity lacks is rustc's \"no field\").",
        fix: "give the projection field the entity field's type, or an `Option` of it",
        example: "#[dynamo(of = Task)] struct T { title: u32 } // Task's title is a String",
    }
    NativeKeyShape = 120, derive {
        title: "a native key with no field, more than four, or one twice",
        checks: "A native multi-attribute key of an index with no attribute, more than DynamoDB's four, or one field twice.",
        fix: "list one to four distinct fields in each of `pk(..)` and `sk(..)`",
        example: "#[gsi(\"ByRegion\", pk(a, b, c, d, e))]",
    }
    NativeKeyType = 121, runtime {
        title: "a native key attribute with no S, N or B form",
        checks: "A native key on a `bool`, a list, set or map, a `serde`, `skip` or `ttl` field, or a type without `NativeKeyAttr`.",
        fix: "key on a string, unit enum, uuid, date, instant (S), integer or decimal (N) or bytes (B) field, or use a template index",
        example: "#[gsi(\"ByActive\", pk(active))] struct U { active: bool }",
    }
    NativeKeyPlace = 122, derive {
        title: "a native key where DynamoDB has none",
        checks: "A native key on the table key or a local index, or mixed with a template in one index.",
        fix: "write a template for the table key and local indexes; declare native keys on global indexes, both keys native",
        example: "#[pk(tenant, region)]",
    }
    UniqueScope = 123, derive {
        title: "a `unique(scope = ..)` that names no usable field",
        checks: "`unique(scope = ..)` naming no field of the entity, the unique field itself, or a field without one text per value (`serde`, `skip`, `ttl`, a float, …).",
        fix: "name the field whose value scopes the unique one: `unique(scope = tenant)`",
        example: "#[dynamo(unique(scope = tenent))] email: String",
    }
    SharedAttribute = 124, derive {
        title: "two fields stored in one attribute",
        checks: "Two stored fields of an entity or a nested value in one attribute (a `rename` onto another field's name, or two fields renamed alike): one value would overwrite the other in every item.",
        fix: "give one of them its own attribute name with #[dynamo(rename = \"...\")]",
        example: "mail: String, #[dynamo(rename = \"mail\")] email: String",
    }
    UpdateKeyInputs = 226, derive {
        title: "an update sets some inputs of an index key",
        checks: "A typed update sets an input of an index key without the key's other inputs, so the key cannot be rebuilt (the message lists them and names the key's group setter).",
        fix: "set every input of the key, or use the key's group setter (`set_gsi1_sk(status, placed)`), which sets them together",
        example: "Order::update(id).set_status(s) // GSI1 sk = \"<status>#<placed>\"",
    }
    UpdateTableKey = 227, runtime {
        title: "an update sets a table-key field",
        checks: "A typed update sets a field of the table key: the key is the item's identity.",
        fix: "move the item to its new key with `db.move_item`",
        example: "User::update(id).set_id(new_id)",
    }
    UpsertMissingField = 228, derive {
        title: "an upsert does not set a field a new item needs",
        checks: "An upsert, which creates the item when it is missing, does not set a required field (`Option`, `omit_empty` and `#[dynamo(default)]` fields may be left out).",
        fix: "set every required field, or use `update(..)` to change an existing item only",
        example: "User::upsert(id).set_email(e) // without `name`",
    }
    VersionedBatchPut = 229, runtime {
        title: "a batch write of a versioned entity",
        checks: "A batch write puts an entity with a `#[dynamo(version)]` field: batches cannot check versions.",
        fix: "put it with `db.put` or in a transaction, which check the version",
        example: "db.batch_write().put(&versioned)",
    }
    SameDiscriminator = 301, derive {
        title: "two entities share a discriminator",
        checks: "Two entities of a `DynamoUnion` or `DynamoTable` with one discriminator, or one entity listed twice.",
        fix: "give each entity its own #[dynamo(entity = \"...\")]",
        example: "#[dynamo(entities(User, Admin))] // both entity = \"USER\"",
    }
    DiscriminatorAttribute = 302, derive {
        title: "entities disagree on the discriminator attribute",
        checks: "Two entities of a union or table store their discriminators in different attributes.",
        fix: "give both the same #[dynamo(discriminator_attr = \"...\")]",
        example: "#[dynamo(discriminator_attr = \"kind\")] on one entity only",
    }
    TableKeyAttributes = 303, derive {
        title: "entities name the table's key attributes differently",
        checks: "Two entities of a table with different `pk_attr` / `sk_attr`, or a sort key in one only.",
        fix: "use the same pk_attr and sk_attr, and a sort key in both or neither",
        example: "#[dynamo(pk_attr = \"PK\")] on one entity only",
    }
    IndexDisagreement = 304, derive {
        title: "entities disagree on an index",
        checks: "Two entities of a table give one index another kind or other key attributes (for a native one, other attributes or types), or two indexes one attribute.",
        fix: "give indexes of one name the same kind and pk_attr/sk_attr (native ones the same fields' attributes and types), and indexes of different names different attributes",
        example: "#[gsi(\"GSI1\", ..)] in one entity, #[lsi(\"GSI1\", ..)] in another",
    }
    PrefixOverlap = 305, derive {
        title: "one entity's sort-key prefix swallows another's",
        checks: "In a partition two entities can share, one's sort-key prefix begins every sort key of the other: its typed queries read the other's items too.",
        fix: "give them distinct literal prefixes, or accept the cost with #[dynamo(overlap(A, B))] (never with a `path` field)",
        example: "#[sk(\"TASK#<id>\")] beside #[sk(\"TASK#COMMENT#<id>\")]",
    }
    AttributeTypes = 306, derive {
        title: "one key attribute with two types in a table",
        checks: "One attribute with two DynamoDB types among the key attributes of a table's entities (a native key's N beside another's S); reported once per attribute.",
        fix: "rename one of the fields (#[dynamo(rename = \"..\")]), or give both the same type",
        example: "#[gsi(\"A\", pk(code))] code: String beside #[gsi(\"B\", pk(code))] code: u32",
    }
    StreamView = 307, derive {
        title: "an unknown stream view",
        checks: "A `#[dynamo(stream = \"..\")]` on a `DynamoTable` that is not one of DynamoDB's four stream views.",
        fix: "use one of KEYS_ONLY, NEW_IMAGE, OLD_IMAGE, NEW_AND_OLD_IMAGES (typed changes need NEW_AND_OLD_IMAGES to say everything)",
        example: "#[dynamo(stream = \"NEW\")]",
    }
    ConsistentGlobalRead = 401, runtime {
        title: "a consistent read of a global index",
        checks: "`.consistent()` on a query of a global secondary index, which DynamoDB refuses.",
        fix: "read the table or a local index consistently, or read the global index eventually consistent",
        example: "db.query(User::gsi1_pk(..)?).consistent()",
    }
    PartialIndexRead = 402, runtime {
        title: "reading whole entities through a partial index",
        checks: "Reading the entity through an index whose projection is `KEYS_ONLY` or `INCLUDE(..)`, which does not hold whole items.",
        fix: "read keys or a `DynamoProjection` of the projected fields, or hydrate the items from the table",
        example: "db.query(User::by_team_pk(..)?).all() // projection = \"KEYS_ONLY\"",
    }
    Snapshot = 500, derive {
        title: "the schema snapshot cannot be read",
        checks: "A `schema = \"..\"` snapshot that does not exist, or a snapshot (named, or the default `dynakey/<Table>.schema` when present) that does not parse or is of a newer dynakey's format.",
        fix: "write the snapshot from the code with `DYNAKEY_SCHEMA=overwrite cargo test`",
        example: "#[dynamo(schema = \"missing.schema\")]",
    }
    DriftKey = 501, derive {
        title: "drift: a table key changed",
        checks: "A table key template or attribute (a format width included: `d4` → `d6`) differs from the committed snapshot, and no migration covers it.",
        fix: "keep the old struct beside the new one, declare Migration::rekey::<Old, New>(..) in the table's migrations, run db.migrate(..), then rewrite the snapshot (DYNAKEY_SCHEMA=overwrite cargo test)",
        example: "#[sk(\"ORDER#<n:d4>\")] → #[sk(\"ORDER#<n:d6>\")]",
    }
    DriftDiscriminator = 502, derive {
        title: "drift: a discriminator changed",
        checks: "A discriminator or its attribute differs from the committed snapshot, and no migration covers it.",
        fix: "keep the old struct beside the new one, declare `Migration::rekey::<Old, New>(..)` in the table's migrations (it rewrites each stored item, its discriminator with it), run `db.migrate(..)`, then rewrite the snapshot",
        example: "#[dynamo(entity = \"USER\")] → #[dynamo(entity = \"MEMBER\")]",
    }
    DriftAttribute = 503, derive {
        title: "drift: a field's stored attribute name changed",
        checks: "A field's attribute name differs from the committed snapshot, and no migration covers it.",
        fix: "declare `Migration::rename_attribute::<E>(.., \"old\", \"new\")` in the table's migrations, run `db.migrate(..)`, then rewrite the snapshot",
        example: "email: String → #[dynamo(rename = \"mail\")] email: String",
    }
    DriftIndex = 504, derive {
        title: "drift: an index changed",
        checks: "An index's kind, key attributes, templates or form differ from the committed snapshot, and no migration covers it.",
        fix: "declare `Migration::backfill::<E>(..)` (or a rekey) in the table's migrations, which rewrites the index keys of stored items, run `db.migrate(..)` (`db.sync_table(..)` first when the index is new to the table), then rewrite the snapshot",
        example: "#[gsi(\"GSI1\", pk = \"TEAM#<team>\")] → pk = \"T#<team>\"",
    }
    DriftRemoved = 505, derive {
        title: "drift: an entity removed from the table",
        checks: "An entity of the committed snapshot is no longer listed in the table, and no migration covers its stored items.",
        fix: "declare `Migration::drop_entity(.., \"DISCRIMINATOR\", \"attr\")` in the table's migrations, which deletes its stored items, run `db.migrate(..)`, then rewrite the snapshot",
        example: "#[dynamo(entities(User, Team))] → #[dynamo(entities(User))]",
    }
    DriftField = 506, derive {
        title: "drift: a field's type or stored form changed",
        checks: "A field's type or its stored form (`ttl`, `serde` added or removed) differs from the committed snapshot, or a new field old items lack has no `#[dynamo(default)]`, and no migration covers it.",
        fix: "give a new field `#[dynamo(default)]` (or make it an `Option`); for a changed type or form, keep the old struct and declare `Migration::rekey::<Old, New>(..)`, which rewrites the field in stored items; run `db.migrate(..)`, then rewrite the snapshot",
        example: "age: u32 → age: String",
    }
    DriftVector = 507, derive {
        title: "drift: a vector index changed",
        checks: "A vector index of the committed snapshot (format 3 on) whose dimensions, distance function or vector attribute differ in the code: the table's index keeps its definition (`db.sync_table(..)` adds and removes vector indexes, it changes none), and stored vectors have the old length. Adding or removing a vector index is not drift; a snapshot of an earlier format records no vector index, so none is compared with it.",
        fix: "keep the index as it is, or declare the changed one under a new name (on a new attribute when the dimensions change) and write the new vectors into stored items, then rewrite the snapshot (DYNAKEY_SCHEMA=overwrite cargo test)",
        example: "#[vector_index(\"BySimilar\", dimensions = 4, ..)] → dimensions = 8",
    }
    VectorShape = 600, derive {
        title: "malformed `#[vector_index]`",
        checks: "A vector index without its name (3–255 characters of a-z A-Z 0-9 _ . -) first, without `vector`, `dimensions` or `distance`, with an option given twice, or with an unknown option.",
        fix: "write #[vector_index(\"BySimilar\", vector = embedding, dimensions = 768, distance = \"COSINE\")]",
        example: "#[vector_index(vector = embedding, dimensions = 4)]",
    }
    VectorDimensions = 601, derive {
        title: "vector dimensions",
        checks: "`dimensions` outside DynamoDB's 1–4,096, unequal to the length of an `[f32; N]` field, or two indexes on one vector field with different dimensions.",
        fix: "give the field's length as `dimensions`, within DynamoDB's 1–4,096",
        example: "#[vector_index(\"S\", vector = e, dimensions = 768, ..)] struct T { e: [f32; 4] }",
    }
    VectorType = 602, runtime {
        title: "vector field type",
        checks: "The vector field is not `[f32; N]` or `Vec<f32>` (or an `Option` of one); in generic code, the `VectorValue` bound.",
        fix: "store the embedding as `[f32; N]` (its length checked by the type), or `Vec<f32>` (checked before each search)",
        example: "#[vector_index(\"S\", vector = e, ..)] struct T { e: String }",
    }
    VectorDistance = 603, derive {
        title: "distance function",
        checks: "A `distance` other than DynamoDB's `\"COSINE\"`, `\"EUCLIDEAN\"` or `\"DOT_PRODUCT\"`; the message suggests the closest.",
        fix: "write one of DynamoDB's distance functions: \"COSINE\", \"EUCLIDEAN\" or \"DOT_PRODUCT\"",
        example: "distance = \"COSIN\"",
    }
    VectorSchemaType = 604, derive {
        title: "scope or filter attribute type",
        checks: "A `scope` or `filter` field that is not a top-level attribute stored as a string, a number or binary: a bool, a list, a set, a map, a `serde` or TTL field, or the vector itself.",
        fix: "scope and filter by a String, number, Uuid, date, Blob or unit enum field",
        example: "filter(tags) struct T { tags: Vec<String> }",
    }
    VectorField = 605, derive {
        title: "vector index names no field",
        checks: "`vector`, `scope` or `filter` names no stored field of the entity; the message suggests the closest name.",
        fix: "name a stored field of the entity (its Rust name)",
        example: "vector = embeding",
    }
    VectorSchema = 606, derive {
        title: "search schema shape",
        checks: "More than one `scope` field (DynamoDB scopes a search by one HASH element), more than 18 `filter` fields (its INLINE_FILTER elements), or a field twice in the search schema.",
        fix: "keep one scope field and make the others filters; list each field once",
        example: "scope(tenant, region)",
    }
    VectorName = 607, derive {
        title: "vector index name",
        checks: "A vector index named like another index of the entity (vector, global and local indexes share one namespace), or whose search function `<name in snake case>` another generated function already has.",
        fix: "give the vector index its own name",
        example: "#[gsi(\"Similar\", ..)] #[vector_index(\"Similar\", ..)]",
    }
    VectorLimit = 608, derive {
        title: "too many vector indexes",
        checks: "An entity that declares more than 5 vector indexes (DynamoDB's limit per table).",
        fix: "search one index with different filters instead of adding one",
        example: "six #[vector_index(..)] on one entity",
    }
    VectorAgreement = 610, derive {
        title: "vector index disagreement across a table",
        checks: "Entities of one table that declare one vector index differently: its vector attribute, dimensions, distance or search schema.",
        fix: "declare the index the same way in every entity, or give each its own name",
        example: "Ticket: dimensions = 4; Article: dimensions = 8 (both \"Similar\")",
    }
    VectorTableLimit = 611, derive {
        title: "too many vector indexes in a table",
        checks: "The entities of a table that declare more than 5 vector indexes between them.",
        fix: "share an index between entities (the same declaration) or drop one",
        example: "three entities of one table with two vector indexes each",
    }
    VectorTableName = 612, derive {
        title: "vector index named like another entity's index",
        checks: "A vector index of one entity named like a global or local index of another entity of the table.",
        fix: "rename one of the indexes: vector, global and local indexes share one namespace",
        example: "Ticket: #[vector_index(\"ByText\", ..)]; Article: #[gsi(\"ByText\", ..)]",
    }
    VectorTableDimensions = 613, derive {
        title: "one vector attribute, two dimensions",
        checks: "Vector indexes of a table's entities that read one attribute with different dimensions.",
        fix: "give the vectors of another length their own attribute (#[dynamo(rename = \"..\")])",
        example: "Ticket and Article both store `embedding`, of 4 and 8 dimensions",
    }
}
