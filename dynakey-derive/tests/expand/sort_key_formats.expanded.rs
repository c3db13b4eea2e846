// size: 2410 tokens, 255 lines

// #[derive(DynamoEntity)] on `Reading`: 2410 tokens, 255 lines

#[allow(unused_imports)]
#[doc(hidden)]
use ::dynakey::__private as __dk_private_Reading;
#[doc = "A step of a sort-key condition chain of `Reading` (`Reading::sk()` and each index's `<index>_sk()`): sort key `SORT_KEY` with `FIXED` fields fixed, offering the next field's method and, through `Deref`, the comparisons on it."]
#[must_use = "a sort-key step does nothing until a condition is taken from it"]
pub struct ReadingKeyStep<const SORT_KEY: usize, const FIXED: usize, S>(S);
#[doc = "A typed update of one `Reading`, from `Reading::update(..)` (change an existing item) or `Reading::upsert(..)` (create it when missing); send it with `db.update(..)`. It rewrites every index key whose inputs it sets."]
#[must_use = "an update does nothing until sent with db.update(..)"]
#[allow(non_camel_case_types)]
pub struct ReadingUpdate<_mode = __dk_private_Reading::Patch,> {
    __c: __dk_private_Reading::UpdateCore<Reading, ()>,
    __s: __dk_private_Reading::PhantomData<fn() -> (_mode,)>,
}
#[automatically_derived]
#[allow(dead_code)]
impl<_mode,> ReadingUpdate<_mode,> {
    #[doc(hidden)]
    pub fn set_sensor(self, _: impl __dk_private_Reading::TableKeyField) -> Self {
        self
    }
    #[doc(hidden)]
    pub fn set_at(self, _: impl __dk_private_Reading::TableKeyField) -> Self {
        self
    }
    #[doc(hidden)]
    pub fn set_seq(self, _: impl __dk_private_Reading::TableKeyField) -> Self {
        self
    }
    #[doc(hidden)]
    pub fn set_value(self, _: impl __dk_private_Reading::TableKeyField) -> Self {
        self
    }
}
#[doc = "Typed handles on the attributes of `Reading`, for conditions and filters: one field per stored field, of the same name, holding its attribute name (`Reading::attrs().field.eq(..)`)."]
pub struct ReadingAttrs {
    #[doc = "The attribute `sensor`."]
    pub sensor: __dk_private_Reading::Field<Reading, String>,
    #[doc = "The attribute `at`."]
    pub at: __dk_private_Reading::Field<Reading, time::OffsetDateTime>,
    #[doc = "The attribute `seq`."]
    pub seq: __dk_private_Reading::Field<Reading, u32>,
    #[doc = "The attribute `value`."]
    pub value: __dk_private_Reading::Field<Reading, rust_decimal::Decimal>,
    #[doc = "The attribute `note`."]
    pub note: __dk_private_Reading::Field<Reading, String>,
}
#[doc(hidden)]
#[macro_export]
#[allow(unused_macros, non_snake_case, non_local_definitions)]
macro_rules! __dynakey_Reading_b7a890468b3ba821 {
    ($($cb: tt) *) => {
        ::dynakey::__private::table_step! {
            $($cb) * {
                Reading "entity \"READING\" \"_type\"\nkey \"pk\" \"SENSOR#<sensor>\"\nkey \"sk\" \"AT#<at:rev>#SEQ#<seq:d6>#V#<value:n8.2>\"\nfield \"sensor\" \"sensor\" \"String\" required nodefault \"own\"\nfield \"at\" \"at\" \"time::OffsetDateTime\" required nodefault \"own\"\nfield \"seq\" \"seq\" \"u32\" required nodefault \"own\"\nfield \"value\" \"value\" \"rust_decimal::Decimal\" required nodefault \"own\"\nfield \"note\" \"note\" \"Option<String>\" optional nodefault \"own\""
            }
        }
    };
}
#[doc(hidden)]
#[allow(unused_imports)]
pub use __dynakey_Reading_b7a890468b3ba821 as Reading;
#[allow(non_camel_case_types, non_snake_case, dead_code, clippy::all)]
const _: () = {
    #[allow(unused_imports)]
    use ::dynakey::__private::names::*;
    const __TPL_PK: &__dk_KeyTemplate = &__dk_KeyTemplate::__derived("READING", "pk", __dk_None, "SENSOR#<sensor>", &__dk_parts::<2usize>("SENSOR#<sensor>")).of_role(__dk_KeyRole::Partition);
    const __TPL_SK: &__dk_KeyTemplate = &__dk_KeyTemplate::__derived("READING", "sk", __dk_None, "AT#<at:rev>#SEQ#<seq:d6>#V#<value:n8.2>", &__dk_parts::<6usize>("AT#<at:rev>#SEQ#<seq:d6>#V#<value:n8.2>")).of_role(__dk_KeyRole::Sort);
    #[automatically_derived]
    impl<const SORT_KEY: usize, const FIXED: usize, S: __dk_Debug> __dk_Debug for ReadingKeyStep<SORT_KEY, FIXED, S> {
        fn fmt(&self, f: &mut __dk_Formatter<'_>) -> __dk_FmtResult {
            __dk_Debug::fmt(&self.0, f)
        }
    }
    #[automatically_derived]
    impl<const SORT_KEY: usize, const FIXED: usize, S> __dk_Deref for ReadingKeyStep<SORT_KEY, FIXED, S> {
        type Target = S;
        fn deref(&self) -> &S {
            &self.0
        }
    }
    #[automatically_derived]
    impl ReadingKeyStep<0usize, 0usize, __dk_SortKeyNext<Reading, __dk_Table, time::OffsetDateTime>> {
        #[doc = "`AT#<at:rev>#SEQ#<seq:d6>#V#<value:n8.2>`: fixes `at` to `v`."]
        pub fn at(&self, v: impl __dk_Borrow<time::OffsetDateTime>) -> ReadingKeyStep<0usize, 1usize, __dk_SortKeyNext<Reading, __dk_Table, u32>> {
            ReadingKeyStep(self.0.__then::<u32>(v.borrow(), <u32 as __dk_KeyPadded>::padded_form().writer()))
        }
    }
    #[automatically_derived]
    impl ReadingKeyStep<0usize, 1usize, __dk_SortKeyNext<Reading, __dk_Table, u32>> {
        #[doc = "`AT#<at:rev>#SEQ#<seq:d6>#V#<value:n8.2>`: fixes `seq` to `v`."]
        pub fn seq(&self, v: impl __dk_Borrow<u32>) -> ReadingKeyStep<0usize, 2usize, __dk_SortKeyNext<Reading, __dk_Table, rust_decimal::Decimal>> {
            ReadingKeyStep(self.0.__then::<rust_decimal::Decimal>(v.borrow(), <rust_decimal::Decimal as __dk_KeyDecimal>::decimal_form().writer()))
        }
    }
    #[automatically_derived]
    impl ReadingKeyStep<0usize, 2usize, __dk_SortKeyNext<Reading, __dk_Table, rust_decimal::Decimal>> {
        #[doc = "`AT#<at:rev>#SEQ#<seq:d6>#V#<value:n8.2>`: fixes `value` to `v`."]
        pub fn value(&self, v: impl __dk_Borrow<rust_decimal::Decimal>) -> __dk_SortKeyFull<Reading, __dk_Table> {
            self.0.__end(v.borrow())
        }
    }
    #[automatically_derived]
    impl<_mode: __dk_UpdateMode,> ReadingUpdate<_mode,> {
        #[doc = "Sets `note` (`None` removes it)."]
        pub fn set_note(mut self, value: impl __dk_IntoField<Option<String>>) -> Self {
            self.__c.set("note", value);
            self
        }
        #[doc = "Removes `note` (and every index key it feeds)."]
        pub fn remove_note(mut self) -> Self {
            self.__c.remove("note");
            self
        }
        #[doc = "Sets `note` unless the item has it (`if_not_exists`)."]
        pub fn set_note_if_not_exists(mut self, value: impl __dk_IntoField<Option<String>>) -> Self {
            self.__c.set_if_not_exists("note", value);
            self
        }
        #[doc = r" Adds a condition (joined with AND to any other)."]
        pub fn condition(mut self, cond: __dk_Condition) -> Self {
            self.__c.condition(cond);
            self
        }
    }
    #[automatically_derived]
    impl<_mode,> __dk_UpdateTarget for ReadingUpdate<_mode,> {
        type Entity = Reading;
    }
    #[automatically_derived]
    impl<_mode,> __dk_Debug for ReadingUpdate<_mode,> {
        fn fmt(&self, f: &mut __dk_Formatter<'_>) -> __dk_FmtResult {
            __dk_Debug::fmt(&self.__c, f)
        }
    }
    #[automatically_derived]
    impl<_mode: __dk_UpdateMode,> __dk_CompleteUpdate for ReadingUpdate<_mode,> {
        fn parts(self) -> __dk_Result<__dk_UpdateParts<Reading>, __dk_Error> {
            let mut c = self.__c;
            c.finish()
        }
    }
    #[automatically_derived]
    impl Reading {
        #[doc = "Starts an update of the existing `Reading` at this key (it fails with `Error::ConditionFailed` when there is none); table-key fields cannot change (use `db.move_item`)."]
        pub fn update(sensor: impl __dk_AsRef<str>, at: impl __dk_Borrow<time::OffsetDateTime>, seq: impl __dk_Borrow<u32>, value: impl __dk_Borrow<rust_decimal::Decimal>) -> ReadingUpdate {
            let sensor = sensor.as_ref();
            let at = at.borrow();
            let seq = seq.borrow();
            let value = value.borrow();
            let c = __dk_UpdateCore::patch(Self::key(sensor, at, seq, value), (), "pk");
            ReadingUpdate {
                __c: c,
                __s: __dk_PhantomData
            }
        }
        #[doc = "Starts an upsert of the `Reading` at this key: it creates the item when it is missing (with the discriminator and the key fields), so it must set every field a new item needs (DYNA228); counters (`increment_*`) start from zero."]
        pub fn upsert(sensor: impl __dk_AsRef<str>, at: impl __dk_Borrow<time::OffsetDateTime>, seq: impl __dk_Borrow<u32>, value: impl __dk_Borrow<rust_decimal::Decimal>) -> ReadingUpdate<__dk_Upsert> {
            let sensor = sensor.as_ref();
            let at = at.borrow();
            let seq = seq.borrow();
            let value = value.borrow();
            let mut c = __dk_UpdateCore::upsert(Self::key(sensor, at, seq, value), (), "_type", "READING");
            c.put_str("sensor", sensor);
            c.put("at", at);
            c.put("seq", seq);
            c.put("value", value);
            ReadingUpdate {
                __c: c,
                __s: __dk_PhantomData
            }
        }
    }
    #[automatically_derived]
    impl Reading {
        #[doc = r" Typed handles on this entity's attributes."]
        #[inline]
        pub const fn attrs() -> ReadingAttrs {
            const ATTRS: ReadingAttrs = ReadingAttrs {
                sensor: __dk_Field::new("sensor"),
                at: __dk_Field::new("at"),
                seq: __dk_Field::new("seq"),
                value: __dk_Field::new("value"),
                note: __dk_Field::new("note"),
            };
            ATTRS
        }
    }
    #[automatically_derived]
    impl ::core::clone::Clone for ReadingAttrs {
        fn clone(&self) -> Self {
            *self
        }
    }
    #[automatically_derived]
    impl ::core::marker::Copy for ReadingAttrs {}
    #[automatically_derived]
    impl Reading {
        #[doc = "Parses a stored `pk` key (`SENSOR#<sensor>`) back into its fields, in template order."]
        #[inline]
        pub fn parse_pk(key: &str) -> __dk_KeyResult<(String,)> {
            __dk_parse(__TPL_PK, key, | r | __dk_Ok((r.str()?,)))
        }
        #[doc = "The partition key `pk` = `SENSOR#<sensor>`."]
        pub fn pk(sensor: impl __dk_AsRef<str>) -> __dk_KeyResult<__dk_PartitionKey<Reading, __dk_Table>> {
            __TPL_PK.build().str(sensor.as_ref()).partition()
        }
        #[doc = "Parses a stored `sk` key (`AT#<at:rev>#SEQ#<seq:d6>#V#<value:n8.2>`) back into its fields, in template order."]
        #[inline]
        pub fn parse_sk(key: &str) -> __dk_KeyResult<(time::OffsetDateTime, u32, rust_decimal::Decimal,)> {
            __dk_parse(__TPL_SK, key, | r | __dk_Ok((<time::OffsetDateTime as __dk_KeyReverse>::reverse_form().read(r)?, <u32 as __dk_KeyPadded>::padded_form().read(r)?, <rust_decimal::Decimal as __dk_KeyDecimal>::decimal_form().read(r)?,)))
        }
        #[doc = "The table key of one `Reading`: `pk` = `SENSOR#<sensor>`, `sk` = `AT#<at:rev>#SEQ#<seq:d6>#V#<value:n8.2>`."]
        pub fn key(sensor: impl __dk_AsRef<str>, at: impl __dk_Borrow<time::OffsetDateTime>, seq: impl __dk_Borrow<u32>, value: impl __dk_Borrow<rust_decimal::Decimal>) -> __dk_KeyResult<__dk_Key<Reading>> {
            __TPL_PK.build().str(sensor.as_ref()).table_key(__dk_Some(__TPL_SK.build().part(<time::OffsetDateTime as __dk_KeyReverse>::reverse_form(), at.borrow()).part(<u32 as __dk_KeyPadded>::padded_form(), seq.borrow()).part(<rust_decimal::Decimal as __dk_KeyDecimal>::decimal_form(), value.borrow())))
        }
        #[doc = "Sort-key conditions on `sk` = `AT#<at:rev>#SEQ#<seq:d6>#V#<value:n8.2>`: fix leading fields in order, then compare the next one."]
        #[inline]
        pub fn sk() -> ReadingKeyStep<0usize, 0usize, __dk_SortKeyNext<Reading, __dk_Table, time::OffsetDateTime>> {
            ReadingKeyStep(__dk_SortKeyNext::__of(__TPL_SK, <time::OffsetDateTime as __dk_KeyReverse>::reverse_form().writer()))
        }
    }
    #[automatically_derived]
    impl __dk_Unversioned for Reading {}
    #[automatically_derived]
    impl __dk_Entity for Reading {
        const META: &'static __dk_EntityMeta = &__dk_EntityMeta::__new("Reading", "READING", "_type", __dk_KeyMeta::__of(__TPL_PK, &["sensor"]), __dk_Some(__dk_KeyMeta::__of(__TPL_SK, &["at", "seq", "value"])), &[], &[__dk_FieldMeta::__plain("sensor", "String"), __dk_FieldMeta::__plain("at", "time::OffsetDateTime"), __dk_FieldMeta::__plain("seq", "u32"), __dk_FieldMeta::__plain("value", "rust_decimal::Decimal"), __dk_FieldMeta::__new("note", "note", true, "Option<String>", false, __dk_FieldForm::Own, __dk_Shape::none)]);
        fn to_item(&self) -> __dk_Result<__dk_Item, __dk_EncodeError> {
            static __TEMPLATE: __dk_OnceLock<__dk_ItemTemplate> = __dk_OnceLock::new();
            let mut w = __dk_ItemWriter::<8usize>::default();
            w.text(0, "READING");
            w.built(1, __TPL_PK.build().str(&self.sensor));
            w.built(2, __TPL_SK.build().part(<time::OffsetDateTime as __dk_KeyReverse>::reverse_form(), &self.at).part(<u32 as __dk_KeyPadded>::padded_form(), &self.seq).part(<rust_decimal::Decimal as __dk_KeyDecimal>::decimal_form(), &self.value));
            w.attr(3, &self.sensor);
            w.attr(4, &self.at);
            w.attr(5, &self.seq);
            w.attr(6, &self.value);
            w.attr(7, &self.note);
            w.finish(&__TEMPLATE, &["_type", "pk", "sk", "sensor", "at", "seq", "value", "note"])
        }
        fn from_item(__item: &__dk_Item) -> __dk_Result<Self, __dk_DecodeError> {
            let r = __dk_ItemReader::new(__item, "_type", "READING")?;
            __dk_Ok(Self {
                sensor: r.get("sensor")?,
                at: r.get("at")?,
                seq: r.get("seq")?,
                value: r.get("value")?,
                note: r.get("note")?
            }
            )
        }
        fn item_key(&self) -> __dk_KeyResult<__dk_Key<Self>> {
            __TPL_PK.build().str(&self.sensor).table_key(__dk_Some(__TPL_SK.build().part(<time::OffsetDateTime as __dk_KeyReverse>::reverse_form(), &self.at).part(<u32 as __dk_KeyPadded>::padded_form(), &self.seq).part(<rust_decimal::Decimal as __dk_KeyDecimal>::decimal_form(), &self.value)))
        }
    }
};
