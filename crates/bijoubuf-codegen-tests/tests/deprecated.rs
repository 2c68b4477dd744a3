//! Deprecated messages, enums and enum values (`protos/deprecated.proto`) generated with
//! each decoder (walk, dispatch, table), borrowed twins, serde and services: the
//! generated code compiles here without a warning (`deny(warnings)` below), although it
//! names the deprecated items throughout, and decodes what it encodes. That a user's
//! code naming them draws the lint is checked by the doctests of the library's
//! `deprecated` module.
#![deny(warnings)]

/// The walk, with the services' server and client modules.
pub mod walk {
    include!(concat!(env!("OUT_DIR"), "/deprecated_services/mod.rs"));
}

/// Every message decoded by dispatch.
pub mod dispatch {
    include!(concat!(env!("OUT_DIR"), "/deprecated_dispatch/mod.rs"));
}

/// Every message decoded by a table.
pub mod table {
    include!(concat!(env!("OUT_DIR"), "/deprecated_table/mod.rs"));
}

use bijoubuf::{Message, MessageRef};

/// One `Holder` with every member that holds a deprecated type set, in each module.
macro_rules! holder {
    ($m:ident) => {{
        use $m::deprecated_types as d;
        let old = d::Old {
            name: "old".into(),
            child: Some(Box::new(d::Old {
                name: "child".into(),
                ..Default::default()
            })),
            kind: d::OldKind::Retired.into(),
            part: Some(d::old::Part {
                text: "part".into(),
            }),
            gone: Some(d::old::Gone { n: 7 }),
            children: vec![d::Old::default()],
        };
        d::Holder {
            old: Some(old.clone()),
            olds: vec![old.clone(), d::Old::default()],
            old_by_name: [("a".to_string(), old.clone())].into(),
            choice: Some(d::holder::Choice::Chosen(old)),
            kind: d::OldKind::Retired.into(),
            kinds: vec![0, 1, 5],
            kind_by_name: [("k".to_string(), 1)].into(),
            maybe_kind: Some(1),
            mood: d::Mood::Grumpy.into(),
            maybe_mood: Some(d::Mood::Glum.into()),
            deep: Some(d::outer::Deep {
                text: "deep".into(),
            }),
            deep_kind: 3,
            gone: Some(d::old::Gone { n: 1 }),
            note: "note".into(),
            legacy: d::Legacy::Second.into(),
            gone_by_id: [(3, d::old::Gone { n: 3 })].into(),
            ..Default::default()
        }
    }};
}

#[test]
#[allow(deprecated)] // the test names the deprecated types on purpose
fn deprecated_types_round_trip_through_every_decoder() {
    let walk = holder!(walk);
    let bytes = walk.encode_to_vec().unwrap();
    assert_eq!(holder!(dispatch).encode_to_vec().unwrap(), bytes);
    assert_eq!(holder!(table).encode_to_vec().unwrap(), bytes);
    assert_eq!(
        walk::deprecated_types::Holder::decode(&bytes).unwrap(),
        walk
    );
    assert_eq!(
        dispatch::deprecated_types::Holder::decode(&bytes).unwrap(),
        holder!(dispatch)
    );
    assert_eq!(
        table::deprecated_types::Holder::decode(&bytes).unwrap(),
        holder!(table)
    );
    // The borrowed twin of the deprecated message, and of the holder.
    let twin = walk::deprecated_types::HolderRef::decode(&bytes).unwrap();
    assert_eq!(twin.to_owned(), walk);
    let old = walk.old.clone().unwrap();
    let old_bytes = old.encode_to_vec().unwrap();
    let old_twin = walk::deprecated_types::OldRef::decode(&old_bytes).unwrap();
    assert_eq!(walk::deprecated_types::Old::from(old_twin), old);
}

#[test]
#[allow(deprecated)] // the test names the deprecated types on purpose
fn typed_getters_and_defaults_give_the_deprecated_enums() {
    use walk::deprecated_types as d;
    let h = holder!(walk);
    assert_eq!(h.kind(), Some(d::OldKind::Retired));
    assert_eq!(h.maybe_kind(), Some(d::OldKind::Retired));
    assert_eq!(h.mood(), Some(d::Mood::Grumpy));
    assert_eq!(h.maybe_mood(), Some(d::Mood::Happy));
    assert_eq!(d::Mood::Glum, d::Mood::Happy);
    assert_eq!(d::Legacy::default(), d::Legacy::First);
    let defaults = d::defaults::Defaults::default();
    assert_eq!(defaults.shade(), Some(d::defaults::Shade::Dark));
    assert_eq!(defaults.tint(), Some(d::defaults::Tint::Blue));
    assert_eq!(defaults.plain_tint(), Some(d::defaults::Tint::Red));
}

#[test]
#[allow(deprecated)] // the test names the deprecated types on purpose
fn serde_writes_the_deprecated_types() {
    let h = holder!(walk);
    let json = serde_json::to_string(&h).unwrap();
    let back: walk::deprecated_types::Holder = serde_json::from_str(&json).unwrap();
    assert_eq!(back, h);
}

#[test]
#[allow(deprecated)] // the test names the deprecated types on purpose
fn services_take_and_give_the_deprecated_message() {
    use walk::deprecated_types as d;
    struct Archive;
    #[tonic::async_trait]
    impl d::archive_server::Archive for Archive {
        async fn store(
            &self,
            request: tonic::Request<d::Old>,
        ) -> Result<tonic::Response<d::Holder>, tonic::Status> {
            Ok(tonic::Response::new(d::Holder {
                old: Some(request.into_inner()),
                ..Default::default()
            }))
        }

        async fn fetch(
            &self,
            request: tonic::Request<d::Holder>,
        ) -> Result<tonic::Response<d::Old>, tonic::Status> {
            Ok(tonic::Response::new(
                request.into_inner().old.unwrap_or_default(),
            ))
        }

        type ReplayStream = std::pin::Pin<
            Box<
                dyn tonic::codegen::tokio_stream::Stream<Item = Result<d::Old, tonic::Status>>
                    + Send,
            >,
        >;

        async fn replay(
            &self,
            _request: tonic::Request<tonic::Streaming<d::Old>>,
        ) -> Result<tonic::Response<Self::ReplayStream>, tonic::Status> {
            Err(tonic::Status::unimplemented("replay"))
        }
    }
    let _server = d::archive_server::ArchiveServer::new(Archive);
    let _client: fn(tonic::client::Grpc<()>) -> d::archive_client::ArchiveClient<()> =
        |_| unreachable!();
}
