// size: 712 tokens, 62 lines

// #[derive(DynamoValue)] on `Status`: 712 tokens, 62 lines

#[automatically_derived]
impl Status {
    #[doc(hidden)]
    pub const __NAMES: &'static[&'static str] = &["Open", "DONE"];
    #[doc = r" The name this variant is stored under."]
    pub fn dynamo_name(&self) -> &'static str {
        match self {
            Self::Open => "Open",
            Self::Closed => "DONE",
        }
    }
}
#[automatically_derived]
impl ::dynakey::__private::Attr for Status {
    fn to_attr(&self) -> ::dynakey::__private::Option<::dynakey::__private::AttributeValue> {
        ::dynakey::__private::Some(::dynakey::__private::AttributeValue::S(::dynakey::__private::String::from(self.dynamo_name())))
    }
    fn __shape(__shape: &mut ::dynakey::__private::Shape) {
        __shape.value("Open");
        __shape.value("DONE");
    }
    fn from_attr(__v: &::dynakey::__private::AttributeValue, __path: &::dynakey::__private::AttrPath<'_>) -> ::dynakey::__private::Result<Self, ::dynakey::__private::DecodeError> {
        match __v {
            ::dynakey::__private::AttributeValue::S(__s) => match __s.as_str() {
                "Open" => ::dynakey::__private::Ok(Self::Open),
                "DONE" => ::dynakey::__private::Ok(Self::Closed),
                _ => ::dynakey::__private::Err(::dynakey::__private::unit_enum_mismatch(__v, __path, Self::__NAMES)),
            },
            _ => ::dynakey::__private::Err(::dynakey::__private::unit_enum_mismatch(__v, __path, Self::__NAMES)),
        }
    }
}
#[automatically_derived]
#[diagnostic::do_not_recommend]
impl ::dynakey::__private::NativeKeyAttr for Status {
    const TYPE: ::dynakey::__private::KeyAttrType = ::dynakey::__private::KeyAttrType::S;
    fn key_value(&self) -> ::dynakey::__private::Result<::dynakey::__private::AttributeValue, ::dynakey::__private::KeyPartError> {
        ::dynakey::__private::native_str(self.dynamo_name())
    }
}
#[automatically_derived]
#[diagnostic::do_not_recommend]
impl ::dynakey::__private::NativePrefix for Status {
    type Prefix = str;
    fn prefix_value(__prefix: &str) -> ::dynakey::__private::Option<::dynakey::__private::AttributeValue> {
        ::dynakey::__private::native_str_prefix(__prefix)
    }
}
#[automatically_derived]
impl ::dynakey::__private::KeyText for Status {
    fn write_text(&self, __out: &mut ::dynakey::__private::String) -> ::dynakey::__private::Result<(), ::dynakey::__private::KeyPartError> {
        __out.push_str(self.dynamo_name());
        ::dynakey::__private::Ok(())
    }
    fn parse_text(__s: &str) -> ::dynakey::__private::Result<Self, ::dynakey::__private::KeyPartError> {
        match __s {
            "Open" => ::dynakey::__private::Ok(Self::Open),
            "DONE" => ::dynakey::__private::Ok(Self::Closed),
            _ => ::dynakey::__private::Err(::dynakey::__private::unknown_variant(__s, Self::__NAMES)),
        }
    }
}
