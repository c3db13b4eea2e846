//! The vector indexes of a table as `create_table` (and the exports, and
//! `sync_table`) make them: one definition per index name, agreed on by
//! every entity that declares it, its projection the union of theirs.

use aws_sdk_dynamodb::types::{
    Projection, ProjectionType, SearchSchemaElement, SearchSchemaElementType,
    VectorAttributeDefinition, VectorIndex,
};

use super::{build_err, invalid};
use crate::entity::EntityMeta;
use crate::error::Error;
use crate::vector::VectorIndexMeta;

/// One vector index of the table.
#[derive(Debug, Clone)]
pub(crate) struct VectorDef {
    pub(crate) meta: &'static VectorIndexMeta,
    /// `None` for ALL, else the non-key attributes it holds (with the
    /// discriminator, so a search knows each result's type).
    pub(crate) projection: Option<Vec<&'static str>>,
}

impl VectorDef {
    fn new(meta: &'static VectorIndexMeta, entity: &EntityMeta) -> Self {
        let projection = meta.non_key_attrs(entity.discriminator_attr);
        VectorDef { meta, projection }
    }

    /// Whether two entities' declarations are one index: the same vector
    /// attribute, dimensions, distance and search schema.
    fn agrees(&self, other: &VectorIndexMeta) -> bool {
        let m = self.meta;
        m.vector_attr == other.vector_attr
            && m.dimensions == other.dimensions
            && m.distance == other.distance
            && m.schema_attrs().eq(other.schema_attrs())
    }

    /// Adds another entity's declaration of the index.
    pub(crate) fn merge(
        &mut self,
        other: &'static VectorIndexMeta,
        entity: &EntityMeta,
    ) -> Result<(), Error> {
        if !self.agrees(other) {
            return Err(invalid(format!(
                "vector index {} is declared differently by {} and another entity (vector attribute, dimensions, distance or search schema)",
                other.name, entity.type_name
            )));
        }
        let add = VectorDef::new(other, entity).projection;
        match (self.projection.as_mut(), add) {
            (Some(have), Some(add)) => {
                for a in add {
                    if !have.contains(&a) {
                        have.push(a);
                    }
                }
            }
            _ => self.projection = None,
        }
        Ok(())
    }

    /// The projection, as the API takes it.
    pub(crate) fn sdk_projection(&self) -> Projection {
        match &self.projection {
            Some(attrs) => Projection::builder()
                .projection_type(ProjectionType::Include)
                .set_non_key_attributes(Some(attrs.iter().map(|a| (*a).to_owned()).collect()))
                .build(),
            None => Projection::builder()
                .projection_type(ProjectionType::All)
                .build(),
        }
    }

    /// The search schema, as the API takes it.
    pub(crate) fn search_schema(&self) -> Result<Vec<SearchSchemaElement>, Error> {
        self.meta
            .schema_attrs()
            .map(|(attr, _, scope)| {
                SearchSchemaElement::builder()
                    .attribute_name(attr)
                    .search_schema_element_type(if scope {
                        SearchSchemaElementType::Hash
                    } else {
                        SearchSchemaElementType::InlineFilter
                    })
                    .build()
                    .map_err(build_err)
            })
            .collect()
    }

    /// The `VectorIndexes` entry of `CreateTable`.
    pub(crate) fn sdk(&self) -> Result<VectorIndex, Error> {
        let m = self.meta;
        let schema = self.search_schema()?;
        VectorIndex::builder()
            .index_name(m.name)
            .vector_attribute(
                VectorAttributeDefinition::builder()
                    .attribute_name(m.vector_attr)
                    .build()
                    .map_err(build_err)?,
            )
            .set_search_schema((!schema.is_empty()).then_some(schema))
            .projection(self.sdk_projection())
            .dimensions(i64::from(m.dimensions))
            .distance_function(m.distance.sdk())
            .build()
            .map_err(build_err)
    }
}

impl VectorDef {
    /// The `UpdateTable` action adding the index: the same fields as
    /// [`VectorDef::sdk`] (for the schema runner's `sync_table`).
    #[cfg(feature = "migrate")]
    pub(crate) fn sdk_create(
        &self,
    ) -> Result<aws_sdk_dynamodb::types::CreateVectorIndexAction, Error> {
        let v = self.sdk()?;
        aws_sdk_dynamodb::types::CreateVectorIndexAction::builder()
            .index_name(v.index_name)
            .set_vector_attribute(v.vector_attribute)
            .set_search_schema(v.search_schema)
            .set_projection(v.projection)
            .dimensions(v.dimensions)
            .distance_function(v.distance_function)
            .build()
            .map_err(build_err)
    }
}

/// Adds the vector indexes of `entity` to `defs`: one per name.
pub(crate) fn add_entity(
    defs: &mut std::collections::BTreeMap<&'static str, VectorDef>,
    entity: &EntityMeta,
) -> Result<(), Error> {
    for v in entity.vectors {
        match defs.get_mut(v.name) {
            Some(d) => d.merge(v, entity)?,
            None => {
                defs.insert(v.name, VectorDef::new(v, entity));
            }
        }
    }
    // Indexes on one vector attribute agree on dimensions ("All
    // VectorIndexes on the same vector attribute must use the same
    // dimensions").
    for a in defs.values() {
        if let Some(b) = defs.values().find(|b| {
            b.meta.vector_attr == a.meta.vector_attr && b.meta.dimensions != a.meta.dimensions
        }) {
            return Err(invalid(format!(
                "vector indexes {} and {} read attribute `{}` with {} and {} dimensions; DynamoDB requires one number of dimensions per vector attribute",
                a.meta.name, b.meta.name, a.meta.vector_attr, a.meta.dimensions, b.meta.dimensions
            )));
        }
    }
    if defs.len() > crate::vector::limits::MAX_PER_TABLE {
        return Err(invalid(format!(
            "the entities declare {} vector indexes; DynamoDB allows {} per table",
            defs.len(),
            crate::vector::limits::MAX_PER_TABLE
        )));
    }
    Ok(())
}

/// DynamoDB takes vector indexes on on-demand tables only ("Vector indexes
/// are only supported for PAY_PER_REQUEST tables").
pub(crate) fn check_billing(
    defs: &std::collections::BTreeMap<&'static str, VectorDef>,
    billing: &super::Billing,
) -> Result<(), Error> {
    match (defs.keys().next(), billing) {
        (Some(name), super::Billing::Provisioned { .. }) => Err(invalid(format!(
            "vector index {name} needs an on-demand table: DynamoDB takes vector indexes only under PAY_PER_REQUEST billing, and the options ask for PROVISIONED"
        ))),
        _ => Ok(()),
    }
}
