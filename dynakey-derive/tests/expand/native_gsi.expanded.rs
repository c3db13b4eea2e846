// size: 2623 tokens, 282 lines

// #[derive(DynamoEntity)] on `Order`: 2623 tokens, 282 lines

#[allow(unused_imports)]
#[doc(hidden)]
use ::dynakey::__private as __dk_private_Order;
#[doc = "A step of a sort-key condition chain of `Order` (`Order::sk()` and each index's `<index>_sk()`): sort key `SORT_KEY` with `FIXED` fields fixed, offering the next field's method and, through `Deref`, the comparisons on it."]
#[must_use = "a sort-key step does nothing until a condition is taken from it"]
pub struct OrderKeyStep<const SORT_KEY: usize, const FIXED: usize, S>(S);
#[doc = "A typed update of one `Order`, from `Order::update(..)` (change an existing item) or `Order::upsert(..)` (create it when missing); send it with `db.update(..)`. It rewrites every index key whose inputs it sets."]
#[must_use = "an update does nothing until sent with db.update(..)"]
#[allow(non_camel_case_types)]
pub struct OrderUpdate<_mode = __dk_private_Order::Patch, _region = __dk_private_Order::Unset, _status = __dk_private_Order::Unset, _placed_at = __dk_private_Order::Unset> {
    __c: __dk_private_Order::UpdateCore<Order, ()>,
    __s: __dk_private_Order::PhantomData<fn() -> (_mode, _region, _status, _placed_at,)>,
}
#[automatically_derived]
#[allow(dead_code)]
impl<_mode, _region, _status, _placed_at> OrderUpdate<_mode, _region, _status, _placed_at> {
    #[doc(hidden)]
    pub fn set_tenant(self, _: impl __dk_private_Order::TableKeyField) -> Self {
        self
    }
    #[doc(hidden)]
    pub fn set_id(self, _: impl __dk_private_Order::TableKeyField) -> Self {
        self
    }
}
#[doc = "Typed handles on the attributes of `Order`, for conditions and filters: one field per stored field, of the same name, holding its attribute name (`Order::attrs().field.eq(..)`)."]
pub struct OrderAttrs {
    #[doc = "The attribute `tenant`."]
    pub tenant: __dk_private_Order::Field<Order, String>,
    #[doc = "The attribute `id`."]
    pub id: __dk_private_Order::Field<Order, String>,
    #[doc = "The attribute `region`."]
    pub region: __dk_private_Order::Field<Order, String>,
    #[doc = "The attribute `status`."]
    pub status: __dk_private_Order::Field<Order, String>,
    #[doc = "The attribute `placed_at`."]
    pub placed_at: __dk_private_Order::Field<Order, time::OffsetDateTime>,
}
#[doc(hidden)]
#[macro_export]
#[allow(unused_macros, non_snake_case, non_local_definitions)]
macro_rules! __dynakey_Order_a719f054c6d0b702 {
    ($($cb: tt) *) => {
        ::dynakey::__private::table_step! {
            $($cb) * {
                Order "entity \"ORDER\" \"_type\"\nkey \"pk\" \"TENANT#<tenant>\"\nkey \"sk\" \"ORDER#<id>\"\nnative \"ByRegion\" pk \"tenant\" \"tenant\" \"S\" \"region\" \"region\" \"S\" sk \"status\" \"status\" \"S\" \"placed_at\" \"placed_at\" \"S\"\nfield \"tenant\" \"tenant\" \"String\" required nodefault \"own\"\nfield \"id\" \"id\" \"String\" required nodefault \"own\"\nfield \"region\" \"region\" \"String\" required nodefault \"own\"\nfield \"status\" \"status\" \"String\" required nodefault \"own\"\nfield \"placed_at\" \"placed_at\" \"time::OffsetDateTime\" required nodefault \"own\""
            }
        }
    };
}
#[doc(hidden)]
#[allow(unused_imports)]
pub use __dynakey_Order_a719f054c6d0b702 as Order;
#[allow(non_camel_case_types, non_snake_case, dead_code, clippy::all)]
const _: () = {
    #[allow(unused_imports)]
    use ::dynakey::__private::names::*;
    const __TPL_PK: &__dk_KeyTemplate = &__dk_KeyTemplate::__derived("ORDER", "pk", __dk_None, "TENANT#<tenant>", &__dk_parts::<2usize>("TENANT#<tenant>")).of_role(__dk_KeyRole::Partition);
    const __TPL_SK: &__dk_KeyTemplate = &__dk_KeyTemplate::__derived("ORDER", "sk", __dk_None, "ORDER#<id>", &__dk_parts::<2usize>("ORDER#<id>")).of_role(__dk_KeyRole::Sort);
    const __NPK_BY_REGION: &[__dk_NativeAttr] = &[__dk_NativeAttr::__new("tenant", "tenant", <String as __dk_NativeKeyAttr>::TYPE), __dk_NativeAttr::__new("region", "region", <String as __dk_NativeKeyAttr>::TYPE)];
    const __NSK_BY_REGION: &[__dk_NativeAttr] = &[__dk_NativeAttr::__new("status", "status", <String as __dk_NativeKeyAttr>::TYPE), __dk_NativeAttr::__new("placed_at", "placed_at", <time::OffsetDateTime as __dk_NativeKeyAttr>::TYPE)];
    #[automatically_derived]
    impl<const SORT_KEY: usize, const FIXED: usize, S: __dk_Debug> __dk_Debug for OrderKeyStep<SORT_KEY, FIXED, S> {
        fn fmt(&self, f: &mut __dk_Formatter<'_>) -> __dk_FmtResult {
            __dk_Debug::fmt(&self.0, f)
        }
    }
    #[automatically_derived]
    impl<const SORT_KEY: usize, const FIXED: usize, S> __dk_Deref for OrderKeyStep<SORT_KEY, FIXED, S> {
        type Target = S;
        fn deref(&self) -> &S {
            &self.0
        }
    }
    #[automatically_derived]
    impl OrderKeyStep<0usize, 0usize, __dk_SortKeyTextNext<Order, __dk_Table>> {
        #[doc = "`ORDER#<id>`: fixes `id` to `v`."]
        pub fn id(&self, v: impl __dk_AsRef<str>) -> __dk_SortKeyFull<Order, __dk_Table> {
            self.0.__end(v.as_ref())
        }
        #[doc = "Keys whose `id` text starts with `text`: a prefix search on the text, unlike `.id(..)`, which fixes the value."]
        pub fn id_starts_with(&self, text: impl __dk_AsRef<str>) -> __dk_CondResult<Order, __dk_Table> {
            self.0.starts_with(text)
        }
    }
    #[automatically_derived]
    impl OrderKeyStep<1usize, 0usize, __dk_NativeSortNext<Order, __dk_Global, String>> {
        #[doc = "Native index `ByRegion`: fixes `status` to `v`."]
        pub fn status(&self, v: impl __dk_NativeArg<String>) -> OrderKeyStep<1usize, 1usize, __dk_NativeSortNext<Order, __dk_Global, time::OffsetDateTime>> {
            OrderKeyStep(self.0.__then::<time::OffsetDateTime, _>(&v))
        }
    }
    #[automatically_derived]
    impl OrderKeyStep<1usize, 1usize, __dk_NativeSortNext<Order, __dk_Global, time::OffsetDateTime>> {
        #[doc = "Native index `ByRegion`: fixes `placed_at` to `v`."]
        pub fn placed_at(&self, v: impl __dk_NativeArg<time::OffsetDateTime>) -> __dk_NativeSortFull<Order, __dk_Global> {
            self.0.__end(&v)
        }
    }
    #[automatically_derived]
    impl<_mode: __dk_UpdateMode, _region, _status, _placed_at> OrderUpdate<_mode, _region, _status, _placed_at> {
        fn __re<R0, R1, R2>(self) -> OrderUpdate<_mode, R0, R1, R2> {
            OrderUpdate {
                __c: self.__c,
                __s: __dk_PhantomData
            }
        }
        #[doc = "Sets `region`."]
        pub fn set_region(mut self, value: impl __dk_IntoField<String>) -> OrderUpdate<_mode, __dk_Mark<_mode, _region>, _status, _placed_at> {
            self.__c.set("region", value);
            self.__re()
        }
        #[doc = "Sets `region` unless the item has it (`if_not_exists`)."]
        pub fn set_region_if_not_exists(mut self, value: impl __dk_IntoField<String>) -> OrderUpdate<_mode, __dk_Mark<_mode, _region>, _status, _placed_at> {
            self.__c.set_if_not_exists("region", value);
            self.__re()
        }
        #[doc = "Sets `status`."]
        pub fn set_status(mut self, value: impl __dk_IntoField<String>) -> OrderUpdate<_mode, _region, __dk_Mark<_mode, _status>, _placed_at> {
            self.__c.set("status", value);
            self.__re()
        }
        #[doc = "Sets `status` unless the item has it (`if_not_exists`)."]
        pub fn set_status_if_not_exists(mut self, value: impl __dk_IntoField<String>) -> OrderUpdate<_mode, _region, __dk_Mark<_mode, _status>, _placed_at> {
            self.__c.set_if_not_exists("status", value);
            self.__re()
        }
        #[doc = "Sets `placed_at`."]
        pub fn set_placed_at(mut self, value: impl __dk_IntoField<time::OffsetDateTime>) -> OrderUpdate<_mode, _region, _status, __dk_Mark<_mode, _placed_at>> {
            self.__c.set("placed_at", value);
            self.__re()
        }
        #[doc = "Sets `placed_at` unless the item has it (`if_not_exists`)."]
        pub fn set_placed_at_if_not_exists(mut self, value: impl __dk_IntoField<time::OffsetDateTime>) -> OrderUpdate<_mode, _region, _status, __dk_Mark<_mode, _placed_at>> {
            self.__c.set_if_not_exists("placed_at", value);
            self.__re()
        }
        #[doc = r" Adds a condition (joined with AND to any other)."]
        pub fn condition(mut self, cond: __dk_Condition) -> Self {
            self.__c.condition(cond);
            self
        }
    }
    #[automatically_derived]
    impl<_mode, _region, _status, _placed_at> __dk_UpdateTarget for OrderUpdate<_mode, _region, _status, _placed_at> {
        type Entity = Order;
    }
    #[automatically_derived]
    impl<_mode, _region, _status, _placed_at> __dk_Debug for OrderUpdate<_mode, _region, _status, _placed_at> {
        fn fmt(&self, f: &mut __dk_Formatter<'_>) -> __dk_FmtResult {
            __dk_Debug::fmt(&self.__c, f)
        }
    }
    #[diagnostic::on_unimplemented(message = "DYNA228: this upsert of `Order` does not set every field a new item needs: `region`, `status` and `placed_at`", label = "an upsert creates the item when it is missing, so it sets each of them", note = "the states above are those of `region`, `status` and `placed_at`, in this order (an `Option`, `omit_empty`, defaulted or set field may be left out); to change an existing item only, use `Order::update(..)`")]
    pub trait OrderNewItem<Mode> {}
    #[diagnostic::do_not_recommend]
    #[automatically_derived]
    impl<S: __dk_AllRequired<Mode, dyn OrderNewItem<Mode>>, Mode> OrderNewItem<Mode> for S {}
    #[automatically_derived]
    impl<_mode: __dk_UpdateMode, _region: __dk_State, _status: __dk_State, _placed_at: __dk_State> __dk_CompleteUpdate for OrderUpdate<_mode, _region, _status, _placed_at> where (_region, _status, _placed_at,): OrderNewItem<_mode> {
        fn parts(self) -> __dk_Result<__dk_UpdateParts<Order>, __dk_Error> {
            let mut c = self.__c;
            c.finish()
        }
    }
    #[automatically_derived]
    impl Order {
        #[doc = "Starts an update of the existing `Order` at this key (it fails with `Error::ConditionFailed` when there is none); table-key fields cannot change (use `db.move_item`)."]
        pub fn update(tenant: impl __dk_AsRef<str>, id: impl __dk_AsRef<str>) -> OrderUpdate {
            let tenant = tenant.as_ref();
            let id = id.as_ref();
            let c = __dk_UpdateCore::patch(Self::key(tenant, id), (), "pk");
            OrderUpdate {
                __c: c,
                __s: __dk_PhantomData
            }
        }
        #[doc = "Starts an upsert of the `Order` at this key: it creates the item when it is missing (with the discriminator and the key fields), so it must set every field a new item needs (DYNA228); counters (`increment_*`) start from zero."]
        pub fn upsert(tenant: impl __dk_AsRef<str>, id: impl __dk_AsRef<str>) -> OrderUpdate<__dk_Upsert> {
            let tenant = tenant.as_ref();
            let id = id.as_ref();
            let mut c = __dk_UpdateCore::upsert(Self::key(tenant, id), (), "_type", "ORDER");
            c.put_str("tenant", tenant);
            c.put_str("id", id);
            OrderUpdate {
                __c: c,
                __s: __dk_PhantomData
            }
        }
    }
    #[automatically_derived]
    impl Order {
        #[doc = r" Typed handles on this entity's attributes."]
        #[inline]
        pub const fn attrs() -> OrderAttrs {
            const ATTRS: OrderAttrs = OrderAttrs {
                tenant: __dk_Field::new("tenant"),
                id: __dk_Field::new("id"),
                region: __dk_Field::new("region"),
                status: __dk_Field::new("status"),
                placed_at: __dk_Field::new("placed_at"),
            };
            ATTRS
        }
    }
    #[automatically_derived]
    impl ::core::clone::Clone for OrderAttrs {
        fn clone(&self) -> Self {
            *self
        }
    }
    #[automatically_derived]
    impl ::core::marker::Copy for OrderAttrs {}
    #[automatically_derived]
    impl Order {
        #[doc = "Parses a stored `pk` key (`TENANT#<tenant>`) back into its fields, in template order."]
        #[inline]
        pub fn parse_pk(key: &str) -> __dk_KeyResult<(String,)> {
            __dk_parse(__TPL_PK, key, | r | __dk_Ok((r.str()?,)))
        }
        #[doc = "The partition key `pk` = `TENANT#<tenant>`."]
        pub fn pk(tenant: impl __dk_AsRef<str>) -> __dk_KeyResult<__dk_PartitionKey<Order, __dk_Table>> {
            __TPL_PK.build().str(tenant.as_ref()).partition()
        }
        #[doc = "Parses a stored `sk` key (`ORDER#<id>`) back into its fields, in template order."]
        #[inline]
        pub fn parse_sk(key: &str) -> __dk_KeyResult<(String,)> {
            __dk_parse(__TPL_SK, key, | r | __dk_Ok((r.str()?,)))
        }
        #[doc = "The table key of one `Order`: `pk` = `TENANT#<tenant>`, `sk` = `ORDER#<id>`."]
        pub fn key(tenant: impl __dk_AsRef<str>, id: impl __dk_AsRef<str>) -> __dk_KeyResult<__dk_Key<Order>> {
            __TPL_PK.build().str(tenant.as_ref()).table_key(__dk_Some(__TPL_SK.build().str(id.as_ref())))
        }
        #[doc = "The partition of native index `ByRegion`: `tenant`, `region` (the items' own attributes, in key order)."]
        pub fn by_region_pk(tenant: impl __dk_NativeArg<String>, region: impl __dk_NativeArg<String>) -> __dk_KeyResult<__dk_PartitionKey<Order, __dk_Global>> {
            __dk_NativeKeyBuilder::<Order>::new(<Order as __dk_Entity>::META.discriminator, "ByRegion", __NPK_BY_REGION).value::<String, _>(&tenant).value::<String, _>(&region).partition()
        }
        #[doc = "Sort-key conditions on `sk` = `ORDER#<id>`: fix leading fields in order, then compare the next one."]
        #[inline]
        pub fn sk() -> OrderKeyStep<0usize, 0usize, __dk_SortKeyTextNext<Order, __dk_Table>> {
            OrderKeyStep(__dk_SortKeyTextNext::__of(__TPL_SK))
        }
        #[doc = "Sort-key conditions on native index `ByRegion` (`status`, `placed_at`): fix leading attributes in order, then compare the next one (by value: numbers as numbers)."]
        #[inline]
        pub fn by_region_sk() -> OrderKeyStep<1usize, 0usize, __dk_NativeSortNext<Order, __dk_Global, String>> {
            OrderKeyStep(__dk_NativeSortNext::__of(<Self as __dk_Entity>::META.discriminator, "ByRegion", __NSK_BY_REGION))
        }
    }
    #[automatically_derived]
    impl __dk_Unversioned for Order {}
    #[automatically_derived]
    impl __dk_Entity for Order {
        const META: &'static __dk_EntityMeta = &__dk_EntityMeta::__new("Order", "ORDER", "_type", __dk_KeyMeta::__of(__TPL_PK, &["tenant"]), __dk_Some(__dk_KeyMeta::__of(__TPL_SK, &["id"])), &[__dk_IndexMeta::__native("ByRegion", __NPK_BY_REGION, __NSK_BY_REGION, false, __dk_IndexProjection::All)], &[__dk_FieldMeta::__plain("tenant", "String"), __dk_FieldMeta::__plain("id", "String"), __dk_FieldMeta::__plain("region", "String"), __dk_FieldMeta::__plain("status", "String"), __dk_FieldMeta::__plain("placed_at", "time::OffsetDateTime")]);
        fn to_item(&self) -> __dk_Result<__dk_Item, __dk_EncodeError> {
            static __TEMPLATE: __dk_OnceLock<__dk_ItemTemplate> = __dk_OnceLock::new();
            let mut w = __dk_ItemWriter::<8usize>::default();
            w.text(0, "ORDER");
            w.built(1, __TPL_PK.build().str(&self.tenant));
            w.built(2, __TPL_SK.build().str(&self.id));
            w.attr(3, &self.tenant);
            w.attr(4, &self.id);
            w.attr(5, &self.region);
            w.attr(6, &self.status);
            w.attr(7, &self.placed_at);
            w.finish(&__TEMPLATE, &["_type", "pk", "sk", "tenant", "id", "region", "status", "placed_at"])
        }
        fn from_item(__item: &__dk_Item) -> __dk_Result<Self, __dk_DecodeError> {
            let r = __dk_ItemReader::new(__item, "_type", "ORDER")?;
            __dk_Ok(Self {
                tenant: r.get("tenant")?,
                id: r.get("id")?,
                region: r.get("region")?,
                status: r.get("status")?,
                placed_at: r.get("placed_at")?
            }
            )
        }
        fn item_key(&self) -> __dk_KeyResult<__dk_Key<Self>> {
            __TPL_PK.build().str(&self.tenant).table_key(__dk_Some(__TPL_SK.build().str(&self.id)))
        }
    }
};
