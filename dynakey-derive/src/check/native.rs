//! The fields of native multi-attribute keys (DYNA121): each is stored as
//! an S, N or B attribute, as far as its syntax tells (other types are
//! checked by the `NativeKeyAttr` bound in the generated code).

use crate::ctxt::Ctxt;
use crate::diag::render::as_written;
use crate::diag::Code;
use crate::model::{Entity, Field, FieldRole};
use crate::types::{is_list, is_set, TypeKind};

pub fn check_native(cx: &Ctxt, e: &Entity) {
    for ix in &e.natives {
        for a in &ix.attrs {
            let f = &e.fields[a.field];
            if let Some(why) = no_key_form(f) {
                let name = &f.name.text;
                cx.report(a.span, Code::NativeKeyType.msg(format!("field `{name}` cannot be a native key attribute of index `{}`: {why}", ix.name)).draw(as_written(&a.written, a.range.clone())).help("a native key attribute is an S (strings, unit enums, uuids, dates, instants), N (integers, decimals) or B (bytes) attribute; key on another field, or use a template index"));
            }
        }
    }
}

/// Why a field has no S, N or B form, as far as its syntax tells (other
/// types are checked by the `NativeKeyAttr` bound in the generated code).
fn no_key_form(f: &Field) -> Option<&'static str> {
    if f.synthetic {
        return None;
    }
    match f.role {
        FieldRole::Skip => return Some("it is not stored (`skip`)"),
        FieldRole::Serde => {
            return Some("it is stored through serde (`serde`), not as an S, N or B value")
        }
        FieldRole::Ttl => {
            return Some("it is the TTL attribute, epoch seconds DynamoDB deletes by")
        }
        _ => {}
    }
    if f.kind == TypeKind::Bool {
        return Some("a `bool` is stored as BOOL");
    }
    if is_set(&f.inner) {
        return Some("a set is stored as SS, NS or BS");
    }
    if is_list(&f.inner) {
        return Some("a `Vec` is stored as a list (L); bytes are `Blob`");
    }
    if matches!(last(&f.inner).as_deref(), Some("HashMap" | "BTreeMap")) {
        return Some("a map is stored as M");
    }
    None
}

fn last(ty: &syn::Type) -> Option<String> {
    match ty {
        syn::Type::Path(p) => p.path.segments.last().map(|s| s.ident.to_string()),
        _ => None,
    }
}
