//! Generated types know their fully-qualified names and type URLs: owned types, nested
//! types, borrowed twins and the well-known types.

use bijoubuf::{Message, MessageRef};
use bijoubuf_codegen_tests::example::v1::{Envelope, Person, person};
use bijoubuf_codegen_tests::keywords::r#type::Match;
use bijoubuf_codegen_tests::kitchen::{ScalarsRef, Tree, TreeRef, tree};

#[test]
fn owned_types_carry_package_and_full_name() {
    assert_eq!(Envelope::FULL_NAME, "example.v1.Envelope");
    assert_eq!(Envelope::PACKAGE, "example.v1");
    assert_eq!(Envelope::NAME, "Envelope");
    assert_eq!(Envelope::full_name(), "example.v1.Envelope");
    assert_eq!(Person::type_url(), "type.googleapis.com/example.v1.Person");
    // A nested type: the enclosing message is part of the name, not of the package.
    assert_eq!(
        person::PhoneNumber::FULL_NAME,
        "example.v1.Person.PhoneNumber"
    );
    assert_eq!(person::PhoneNumber::PACKAGE, "example.v1");
    assert_eq!(person::PhoneNumber::NAME, "PhoneNumber");
    // Schema names, not the Rust identifiers they were mangled into.
    assert_eq!(Match::FULL_NAME, "keywords.type.match");
}

#[test]
fn borrowed_twins_answer_with_their_owned_names() {
    assert_eq!(<TreeRef<'_> as MessageRef<'_>>::FULL_NAME, "kitchen.Tree");
    assert_eq!(<TreeRef<'_> as MessageRef<'_>>::PACKAGE, "kitchen");
    assert_eq!(
        <tree::LeafRef<'_> as MessageRef<'_>>::FULL_NAME,
        tree::Leaf::FULL_NAME
    );
    assert_eq!(tree::Leaf::FULL_NAME, "kitchen.Tree.Leaf");
    assert_eq!(
        <ScalarsRef<'_> as MessageRef<'_>>::type_url(),
        "type.googleapis.com/kitchen.Scalars"
    );
    assert_eq!(Tree::FULL_NAME, "kitchen.Tree");
}

#[test]
fn well_known_types_are_in_google_protobuf() {
    use bijoubuf::wkt::{Any, Duration, ListValue, Timestamp};
    assert_eq!(Timestamp::FULL_NAME, "google.protobuf.Timestamp");
    assert_eq!(
        Duration::type_url(),
        "type.googleapis.com/google.protobuf.Duration"
    );
    assert_eq!(Any::PACKAGE, "google.protobuf");
    assert_eq!(ListValue::FULL_NAME, "google.protobuf.ListValue");
}
