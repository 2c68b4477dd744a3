//! descriptor.proto's messages with every `*Options` field kept as encoded bytes.
//!
//! `prost_types` decodes an options message into a struct of the standard fields it
//! knows, so extension fields (custom options) and standard fields newer than its copy of
//! descriptor.proto are lost. These mirrors of the descriptor messages carry each options
//! message as the bytes the option interpreter wrote instead; encoding them gives the
//! `FileDescriptorSet` protoc writes, and decoding that with `prost_types` gives the view
//! [`Schema::file_descriptor_set`](crate::Schema::file_descriptor_set) returns.
//!
//! Field numbers are those of google/protobuf/descriptor.proto; prost writes fields in
//! field-number order, as protoc does. proto2's repeated scalars are not packed.

use prost::bytes::{Buf, BufMut};
use prost::encoding::{DecodeContext, WireType, skip_field};

/// An options message as its encoded fields (standard and extensions alike).
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct RawOptions(pub(crate) Vec<u8>);

impl prost::Message for RawOptions {
    fn encode_raw(&self, buf: &mut impl BufMut) {
        buf.put_slice(&self.0);
    }

    fn merge_field(
        &mut self,
        tag: u32,
        wire_type: WireType,
        buf: &mut impl Buf,
        ctx: DecodeContext,
    ) -> Result<(), prost::DecodeError> {
        // These messages are only written; a decoder reads `prost_types` instead.
        skip_field(wire_type, tag, buf, ctx)
    }

    fn encoded_len(&self) -> usize {
        self.0.len()
    }

    fn clear(&mut self) {
        self.0.clear();
    }
}

#[derive(Clone, PartialEq, prost::Message)]
pub(crate) struct FileDescriptorSet {
    #[prost(message, repeated, tag = "1")]
    pub(crate) file: Vec<FileDescriptorProto>,
}

#[derive(Clone, PartialEq, prost::Message)]
pub(crate) struct FileDescriptorProto {
    #[prost(string, optional, tag = "1")]
    pub(crate) name: Option<String>,
    #[prost(string, optional, tag = "2")]
    pub(crate) package: Option<String>,
    #[prost(string, repeated, tag = "3")]
    pub(crate) dependency: Vec<String>,
    #[prost(message, repeated, tag = "4")]
    pub(crate) message_type: Vec<DescriptorProto>,
    #[prost(message, repeated, tag = "5")]
    pub(crate) enum_type: Vec<EnumDescriptorProto>,
    #[prost(message, repeated, tag = "6")]
    pub(crate) service: Vec<ServiceDescriptorProto>,
    #[prost(message, repeated, tag = "7")]
    pub(crate) extension: Vec<FieldDescriptorProto>,
    #[prost(message, optional, tag = "8")]
    pub(crate) options: Option<RawOptions>,
    #[prost(message, optional, tag = "9")]
    pub(crate) source_code_info: Option<prost_types::SourceCodeInfo>,
    #[prost(int32, repeated, packed = "false", tag = "10")]
    pub(crate) public_dependency: Vec<i32>,
    #[prost(int32, repeated, packed = "false", tag = "11")]
    pub(crate) weak_dependency: Vec<i32>,
    #[prost(string, optional, tag = "12")]
    pub(crate) syntax: Option<String>,
    /// `Edition` enum number (`EDITION_2023` = 1000, `EDITION_2024` = 1001).
    #[prost(int32, optional, tag = "14")]
    pub(crate) edition: Option<i32>,
    /// `import option "…";` (edition 2024).
    #[prost(string, repeated, tag = "15")]
    pub(crate) option_dependency: Vec<String>,
}

#[derive(Clone, PartialEq, prost::Message)]
pub(crate) struct DescriptorProto {
    #[prost(string, optional, tag = "1")]
    pub(crate) name: Option<String>,
    #[prost(message, repeated, tag = "2")]
    pub(crate) field: Vec<FieldDescriptorProto>,
    #[prost(message, repeated, tag = "3")]
    pub(crate) nested_type: Vec<DescriptorProto>,
    #[prost(message, repeated, tag = "4")]
    pub(crate) enum_type: Vec<EnumDescriptorProto>,
    #[prost(message, repeated, tag = "5")]
    pub(crate) extension_range: Vec<ExtensionRange>,
    #[prost(message, repeated, tag = "6")]
    pub(crate) extension: Vec<FieldDescriptorProto>,
    #[prost(message, optional, tag = "7")]
    pub(crate) options: Option<RawOptions>,
    #[prost(message, repeated, tag = "8")]
    pub(crate) oneof_decl: Vec<OneofDescriptorProto>,
    #[prost(message, repeated, tag = "9")]
    pub(crate) reserved_range: Vec<ReservedRange>,
    #[prost(string, repeated, tag = "10")]
    pub(crate) reserved_name: Vec<String>,
    /// SymbolVisibility: `local` 1, `export` 2, as written (edition 2024).
    #[prost(int32, optional, tag = "11")]
    pub(crate) visibility: Option<i32>,
}

#[derive(Clone, PartialEq, prost::Message)]
pub(crate) struct ExtensionRange {
    #[prost(int32, optional, tag = "1")]
    pub(crate) start: Option<i32>,
    #[prost(int32, optional, tag = "2")]
    pub(crate) end: Option<i32>,
    #[prost(message, optional, tag = "3")]
    pub(crate) options: Option<RawOptions>,
}

/// `DescriptorProto.ReservedRange` and `EnumDescriptorProto.EnumReservedRange` alike.
#[derive(Clone, PartialEq, prost::Message)]
pub(crate) struct ReservedRange {
    #[prost(int32, optional, tag = "1")]
    pub(crate) start: Option<i32>,
    #[prost(int32, optional, tag = "2")]
    pub(crate) end: Option<i32>,
}

#[derive(Clone, PartialEq, prost::Message)]
pub(crate) struct FieldDescriptorProto {
    #[prost(string, optional, tag = "1")]
    pub(crate) name: Option<String>,
    #[prost(string, optional, tag = "2")]
    pub(crate) extendee: Option<String>,
    #[prost(int32, optional, tag = "3")]
    pub(crate) number: Option<i32>,
    #[prost(int32, optional, tag = "4")]
    pub(crate) label: Option<i32>,
    #[prost(int32, optional, tag = "5")]
    pub(crate) r#type: Option<i32>,
    #[prost(string, optional, tag = "6")]
    pub(crate) type_name: Option<String>,
    #[prost(string, optional, tag = "7")]
    pub(crate) default_value: Option<String>,
    #[prost(message, optional, tag = "8")]
    pub(crate) options: Option<RawOptions>,
    #[prost(int32, optional, tag = "9")]
    pub(crate) oneof_index: Option<i32>,
    #[prost(string, optional, tag = "10")]
    pub(crate) json_name: Option<String>,
    #[prost(bool, optional, tag = "17")]
    pub(crate) proto3_optional: Option<bool>,
}

#[derive(Clone, PartialEq, prost::Message)]
pub(crate) struct OneofDescriptorProto {
    #[prost(string, optional, tag = "1")]
    pub(crate) name: Option<String>,
    #[prost(message, optional, tag = "2")]
    pub(crate) options: Option<RawOptions>,
}

#[derive(Clone, PartialEq, prost::Message)]
pub(crate) struct EnumDescriptorProto {
    #[prost(string, optional, tag = "1")]
    pub(crate) name: Option<String>,
    #[prost(message, repeated, tag = "2")]
    pub(crate) value: Vec<EnumValueDescriptorProto>,
    #[prost(message, optional, tag = "3")]
    pub(crate) options: Option<RawOptions>,
    #[prost(message, repeated, tag = "4")]
    pub(crate) reserved_range: Vec<ReservedRange>,
    #[prost(string, repeated, tag = "5")]
    pub(crate) reserved_name: Vec<String>,
    /// SymbolVisibility: `local` 1, `export` 2, as written (edition 2024).
    #[prost(int32, optional, tag = "6")]
    pub(crate) visibility: Option<i32>,
}

#[derive(Clone, PartialEq, prost::Message)]
pub(crate) struct EnumValueDescriptorProto {
    #[prost(string, optional, tag = "1")]
    pub(crate) name: Option<String>,
    #[prost(int32, optional, tag = "2")]
    pub(crate) number: Option<i32>,
    #[prost(message, optional, tag = "3")]
    pub(crate) options: Option<RawOptions>,
}

#[derive(Clone, PartialEq, prost::Message)]
pub(crate) struct ServiceDescriptorProto {
    #[prost(string, optional, tag = "1")]
    pub(crate) name: Option<String>,
    #[prost(message, repeated, tag = "2")]
    pub(crate) method: Vec<MethodDescriptorProto>,
    #[prost(message, optional, tag = "3")]
    pub(crate) options: Option<RawOptions>,
}

#[derive(Clone, PartialEq, prost::Message)]
pub(crate) struct MethodDescriptorProto {
    #[prost(string, optional, tag = "1")]
    pub(crate) name: Option<String>,
    #[prost(string, optional, tag = "2")]
    pub(crate) input_type: Option<String>,
    #[prost(string, optional, tag = "3")]
    pub(crate) output_type: Option<String>,
    #[prost(message, optional, tag = "4")]
    pub(crate) options: Option<RawOptions>,
    #[prost(bool, optional, tag = "5")]
    pub(crate) client_streaming: Option<bool>,
    #[prost(bool, optional, tag = "6")]
    pub(crate) server_streaming: Option<bool>,
}

/// An options message as the option interpreter wrote it, which is protoc's order
/// (`options::protoc_order`).
pub(crate) fn written_options(bytes: &[u8]) -> RawOptions {
    RawOptions(bytes.to_vec())
}
