// size: 2240 tokens, 258 lines

// #[derive(DynamoEntity)] on `Ticket`: 2240 tokens, 258 lines

#[allow(unused_imports)]
#[doc(hidden)]
use ::dynakey::__private as __dk_private_Ticket;
#[doc = "A step of a sort-key condition chain of `Ticket` (`Ticket::sk()` and each index's `<index>_sk()`): sort key `SORT_KEY` with `FIXED` fields fixed, offering the next field's method and, through `Deref`, the comparisons on it."]
#[must_use = "a sort-key step does nothing until a condition is taken from it"]
pub struct TicketKeyStep<const SORT_KEY: usize, const FIXED: usize, S>(S);
#[doc = "A typed update of one `Ticket`, from `Ticket::update(..)` (change an existing item) or `Ticket::upsert(..)` (create it when missing); send it with `db.update(..)`. It rewrites every index key whose inputs it sets."]
#[must_use = "an update does nothing until sent with db.update(..)"]
#[allow(non_camel_case_types)]
pub struct TicketUpdate<_mode = __dk_private_Ticket::Patch, _title = __dk_private_Ticket::Unset> {
    __c: __dk_private_Ticket::UpdateCore<Ticket, (__dk_private_Ticket::String, __dk_private_Ticket::Option<Option<String>>,)>,
    __s: __dk_private_Ticket::PhantomData<fn() -> (_mode, _title,)>,
}
#[automatically_derived]
#[allow(dead_code)]
impl<_mode, _title> TicketUpdate<_mode, _title> {
    #[doc(hidden)]
    pub fn set_id(self, _: impl __dk_private_Ticket::TableKeyField) -> Self {
        self
    }
}
#[doc = "Typed handles on the attributes of `Ticket`, for conditions and filters: one field per stored field, of the same name, holding its attribute name (`Ticket::attrs().field.eq(..)`)."]
pub struct TicketAttrs {
    #[doc = "The attribute `id`."]
    pub id: __dk_private_Ticket::Field<Ticket, String>,
    #[doc = "The attribute `assignee`."]
    pub assignee: __dk_private_Ticket::Field<Ticket, String>,
    #[doc = "The attribute `title`."]
    pub title: __dk_private_Ticket::Field<Ticket, String>,
    #[doc = "The attribute `version`."]
    pub version: __dk_private_Ticket::Field<Ticket, u64>,
}
#[doc(hidden)]
#[macro_export]
#[allow(unused_macros, non_snake_case, non_local_definitions)]
macro_rules! __dynakey_Ticket_46f2856747942a82 {
    ($($cb: tt) *) => {
        ::dynakey::__private::table_step! {
            $($cb) * {
                Ticket "entity \"TICKET\" \"_type\"\nkey \"pk\" \"TICKET#<id>\"\nindex global \"GSI1\" key \"gsi1pk\" \"ASSIGNEE#<assignee>\" key \"gsi1sk\" \"TICKET#<id>\"\nfield \"id\" \"id\" \"String\" required nodefault \"own\"\nfield \"assignee\" \"assignee\" \"Option<String>\" optional nodefault \"own\"\nfield \"title\" \"title\" \"String\" required nodefault \"own\"\nfield \"version\" \"version\" \"u64\" required nodefault \"own\""
            }
        }
    };
}
#[doc(hidden)]
#[allow(unused_imports)]
pub use __dynakey_Ticket_46f2856747942a82 as Ticket;
#[allow(non_camel_case_types, non_snake_case, dead_code, clippy::all)]
const _: () = {
    #[allow(unused_imports)]
    use ::dynakey::__private::names::*;
    const __TPL_PK: &__dk_KeyTemplate = &__dk_KeyTemplate::__derived("TICKET", "pk", __dk_None, "TICKET#<id>", &__dk_parts::<2usize>("TICKET#<id>")).of_role(__dk_KeyRole::Partition);
    const __TPL_GSI1_PK: &__dk_KeyTemplate = &__dk_KeyTemplate::__derived("TICKET", "gsi1pk", __dk_Some("GSI1"), "ASSIGNEE#<assignee>", &__dk_parts::<2usize>("ASSIGNEE#<assignee>")).of_role(__dk_KeyRole::Partition);
    const __TPL_GSI1_SK: &__dk_KeyTemplate = &__dk_KeyTemplate::__derived("TICKET", "gsi1sk", __dk_Some("GSI1"), "TICKET#<id>", &__dk_parts::<2usize>("TICKET#<id>")).of_role(__dk_KeyRole::Sort);
    #[automatically_derived]
    impl<const SORT_KEY: usize, const FIXED: usize, S: __dk_Debug> __dk_Debug for TicketKeyStep<SORT_KEY, FIXED, S> {
        fn fmt(&self, f: &mut __dk_Formatter<'_>) -> __dk_FmtResult {
            __dk_Debug::fmt(&self.0, f)
        }
    }
    #[automatically_derived]
    impl<const SORT_KEY: usize, const FIXED: usize, S> __dk_Deref for TicketKeyStep<SORT_KEY, FIXED, S> {
        type Target = S;
        fn deref(&self) -> &S {
            &self.0
        }
    }
    #[automatically_derived]
    impl TicketKeyStep<0usize, 0usize, __dk_SortKeyTextNext<Ticket, __dk_Global>> {
        #[doc = "`TICKET#<id>`: fixes `id` to `v`."]
        pub fn id(&self, v: impl __dk_AsRef<str>) -> __dk_SortKeyFull<Ticket, __dk_Global> {
            self.0.__end(v.as_ref())
        }
        #[doc = "Keys whose `id` text starts with `text`: a prefix search on the text, unlike `.id(..)`, which fixes the value."]
        pub fn id_starts_with(&self, text: impl __dk_AsRef<str>) -> __dk_CondResult<Ticket, __dk_Global> {
            self.0.starts_with(text)
        }
    }
    #[automatically_derived]
    impl<_mode: __dk_UpdateMode, _title> TicketUpdate<_mode, _title> {
        fn __re<R0>(self) -> TicketUpdate<_mode, R0> {
            TicketUpdate {
                __c: self.__c,
                __s: __dk_PhantomData
            }
        }
        #[doc = "Sets `assignee` (`None` removes it)."]
        pub fn set_assignee(mut self, value: impl __dk_IntoField<Option<String>>) -> Self {
            self.__c.vals.1 = __dk_Some(self.__c.set("assignee", value));
            self
        }
        #[doc = "Removes `assignee` (and every index key it feeds)."]
        pub fn remove_assignee(mut self) -> Self {
            self.__c.remove("assignee");
            self.__c.vals.1 = __dk_Some(__dk_None);
            self
        }
        #[doc = "Sets `title`."]
        pub fn set_title(mut self, value: impl __dk_IntoField<String>) -> TicketUpdate<_mode, __dk_Mark<_mode, _title>> {
            self.__c.set("title", value);
            self.__re()
        }
        #[doc = "Sets `title` unless the item has it (`if_not_exists`)."]
        pub fn set_title_if_not_exists(mut self, value: impl __dk_IntoField<String>) -> TicketUpdate<_mode, __dk_Mark<_mode, _title>> {
            self.__c.set_if_not_exists("title", value);
            self.__re()
        }
        #[doc = r" Only when the stored version is `version` (optimistic lock);"]
        #[doc = r" the update bumps it by one either way."]
        pub fn if_version(mut self, version: u64) -> Self {
            self.__c.condition(__dk_Condition::attr("version").eq(version));
            self
        }
        #[doc = r" Adds a condition (joined with AND to any other)."]
        pub fn condition(mut self, cond: __dk_Condition) -> Self {
            self.__c.condition(cond);
            self
        }
    }
    #[automatically_derived]
    impl<_mode, _title> __dk_UpdateTarget for TicketUpdate<_mode, _title> {
        type Entity = Ticket;
    }
    #[automatically_derived]
    impl<_mode, _title> __dk_Debug for TicketUpdate<_mode, _title> {
        fn fmt(&self, f: &mut __dk_Formatter<'_>) -> __dk_FmtResult {
            __dk_Debug::fmt(&self.__c, f)
        }
    }
    #[diagnostic::on_unimplemented(message = "DYNA228: this upsert of `Ticket` does not set every field a new item needs: `title`", label = "an upsert creates the item when it is missing, so it sets each of them", note = "the states above are those of `title`, in this order (an `Option`, `omit_empty`, defaulted or set field may be left out); to change an existing item only, use `Ticket::update(..)`")]
    pub trait TicketNewItem<Mode> {}
    #[diagnostic::do_not_recommend]
    #[automatically_derived]
    impl<S: __dk_AllRequired<Mode, dyn TicketNewItem<Mode>>, Mode> TicketNewItem<Mode> for S {}
    #[automatically_derived]
    impl<_mode: __dk_UpdateMode, _title: __dk_State> __dk_CompleteUpdate for TicketUpdate<_mode, _title> where (_title,): TicketNewItem<_mode> {
        fn parts(self) -> __dk_Result<__dk_UpdateParts<Ticket>, __dk_Error> {
            let mut c = self.__c;
            c.rekey(__TPL_GSI1_PK.build().slot_str(__dk_slot_opt(&c.vals.1)));
            c.with(| u | u.increment("version", 1));
            c.finish()
        }
    }
    #[automatically_derived]
    impl Ticket {
        #[doc = "Starts an update of the existing `Ticket` at this key (it fails with `Error::ConditionFailed` when there is none); table-key fields cannot change (use `db.move_item`)."]
        pub fn update(id: impl __dk_AsRef<str>) -> TicketUpdate {
            let id = id.as_ref();
            let c = __dk_UpdateCore::patch(Self::key(id), (__dk_String::from(id), __dk_None,), "pk");
            TicketUpdate {
                __c: c,
                __s: __dk_PhantomData
            }
        }
        #[doc = "Starts an upsert of the `Ticket` at this key: it creates the item when it is missing (with the discriminator and the key fields), so it must set every field a new item needs (DYNA228); counters (`increment_*`) start from zero."]
        pub fn upsert(id: impl __dk_AsRef<str>) -> TicketUpdate<__dk_Upsert> {
            let id = id.as_ref();
            let mut c = __dk_UpdateCore::upsert(Self::key(id), (__dk_String::from(id), __dk_None,), "_type", "TICKET");
            c.put_str("id", id);
            c.index_key("gsi1sk", __TPL_GSI1_SK.build().str(id).finish_opt());
            TicketUpdate {
                __c: c,
                __s: __dk_PhantomData
            }
        }
    }
    #[automatically_derived]
    impl Ticket {
        #[doc = r" Typed handles on this entity's attributes."]
        #[inline]
        pub const fn attrs() -> TicketAttrs {
            const ATTRS: TicketAttrs = TicketAttrs {
                id: __dk_Field::new("id"),
                assignee: __dk_Field::new("assignee"),
                title: __dk_Field::new("title"),
                version: __dk_Field::new("version"),
            };
            ATTRS
        }
    }
    #[automatically_derived]
    impl ::core::clone::Clone for TicketAttrs {
        fn clone(&self) -> Self {
            *self
        }
    }
    #[automatically_derived]
    impl ::core::marker::Copy for TicketAttrs {}
    #[automatically_derived]
    impl Ticket {
        #[doc = "Parses a stored `pk` key (`TICKET#<id>`) back into its fields, in template order."]
        #[inline]
        pub fn parse_pk(key: &str) -> __dk_KeyResult<(String,)> {
            __dk_parse(__TPL_PK, key, | r | __dk_Ok((r.str()?,)))
        }
        #[doc = "The partition key `pk` = `TICKET#<id>`."]
        pub fn pk(id: impl __dk_AsRef<str>) -> __dk_KeyResult<__dk_PartitionKey<Ticket, __dk_Table>> {
            __TPL_PK.build().str(id.as_ref()).partition()
        }
        #[doc = "Parses a stored `gsi1pk` key (`ASSIGNEE#<assignee>`) back into its fields, in template order."]
        #[inline]
        pub fn parse_gsi1_pk(key: &str) -> __dk_KeyResult<(String,)> {
            __dk_parse(__TPL_GSI1_PK, key, | r | __dk_Ok((r.str()?,)))
        }
        #[doc = "The partition key `gsi1pk` = `ASSIGNEE#<assignee>` of index `GSI1`."]
        pub fn gsi1_pk(assignee: impl __dk_AsRef<str>) -> __dk_KeyResult<__dk_PartitionKey<Ticket, __dk_Global>> {
            __TPL_GSI1_PK.build().str(assignee.as_ref()).partition()
        }
        #[doc = "Parses a stored `gsi1sk` key (`TICKET#<id>`) back into its fields, in template order."]
        #[inline]
        pub fn parse_gsi1_sk(key: &str) -> __dk_KeyResult<(String,)> {
            __dk_parse(__TPL_GSI1_SK, key, | r | __dk_Ok((r.str()?,)))
        }
        #[doc = "The table key of one `Ticket`: `pk` = `TICKET#<id>`."]
        pub fn key(id: impl __dk_AsRef<str>) -> __dk_KeyResult<__dk_Key<Ticket>> {
            __TPL_PK.build().str(id.as_ref()).table_key(__dk_None)
        }
        #[doc = "The key texts (partition, sort) an item gets in index `GSI1`."]
        pub fn gsi1_key(assignee: impl __dk_AsRef<str>, id: impl __dk_AsRef<str>) -> __dk_KeyResult<__dk_IndexKeys> {
            __TPL_GSI1_PK.build().str(assignee.as_ref()).index_key(__dk_Some(__TPL_GSI1_SK.build().str(id.as_ref())))
        }
        #[doc = "Sort-key conditions on `gsi1sk` = `TICKET#<id>` of index `GSI1`: fix leading fields in order, then compare the next one."]
        #[inline]
        pub fn gsi1_sk() -> TicketKeyStep<0usize, 0usize, __dk_SortKeyTextNext<Ticket, __dk_Global>> {
            TicketKeyStep(__dk_SortKeyTextNext::__of(__TPL_GSI1_SK))
        }
    }
    #[automatically_derived]
    impl __dk_Entity for Ticket {
        const META: &'static __dk_EntityMeta = &__dk_EntityMeta::__new("Ticket", "TICKET", "_type", __dk_KeyMeta::__of(__TPL_PK, &["id"]), __dk_None, &[__dk_IndexMeta::__new(__dk_IndexKind::Global, __dk_KeyMeta::__of(__TPL_GSI1_PK, &["assignee"]), __dk_Some(__dk_KeyMeta::__of(__TPL_GSI1_SK, &["id"])), true, __dk_IndexProjection::All)], &[__dk_FieldMeta::__plain("id", "String"), __dk_FieldMeta::__new("assignee", "assignee", true, "Option<String>", false, __dk_FieldForm::Own, __dk_Shape::none), __dk_FieldMeta::__plain("title", "String"), __dk_FieldMeta::__plain("version", "u64")]).__with_version("version");
        fn to_item(&self) -> __dk_Result<__dk_Item, __dk_EncodeError> {
            static __TEMPLATE: __dk_OnceLock<__dk_ItemTemplate> = __dk_OnceLock::new();
            let mut w = __dk_ItemWriter::<8usize>::default();
            w.text(0, "TICKET");
            w.built(1, __TPL_PK.build().str(&self.id));
            w.built(2, __TPL_GSI1_PK.build().opt_str(self.assignee.as_ref()));
            w.built(3, __TPL_GSI1_SK.build().str(&self.id));
            w.attr(4, &self.id);
            w.attr(5, &self.assignee);
            w.attr(6, &self.title);
            w.attr(7, &self.version);
            w.finish(&__TEMPLATE, &["_type", "pk", "gsi1pk", "gsi1sk", "id", "assignee", "title", "version"])
        }
        fn from_item(__item: &__dk_Item) -> __dk_Result<Self, __dk_DecodeError> {
            let r = __dk_ItemReader::new(__item, "_type", "TICKET")?;
            __dk_Ok(Self {
                id: r.get("id")?,
                assignee: r.get("assignee")?,
                title: r.get("title")?,
                version: r.get("version")?
            }
            )
        }
        fn item_key(&self) -> __dk_KeyResult<__dk_Key<Self>> {
            __TPL_PK.build().str(&self.id).table_key(__dk_None)
        }
    }
};
