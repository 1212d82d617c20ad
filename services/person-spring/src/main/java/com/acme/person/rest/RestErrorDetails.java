package com.acme.person.rest;

import build.buf.validate.Violations;
import com.google.protobuf.Any;
import com.google.protobuf.ByteString;
import com.google.protobuf.Descriptors.EnumValueDescriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
import java.util.Base64;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * A google.rpc.Status detail as the Connect error JSON carries it (RestError.Detail): its type
 * name, its bytes in standard base64 without padding, and — for buf.validate.Violations, the
 * one detail the twin sends — its protobuf JSON form as debug, so a person can read it.
 */
final class RestErrorDetails {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private RestErrorDetails() {}

  static RestError.Detail of(Any any) {
    String type = any.getTypeUrl().substring(any.getTypeUrl().lastIndexOf('/') + 1);
    String value = Base64.getEncoder().withoutPadding().encodeToString(any.getValue().toByteArray());
    JsonNode debug = null;
    if (any.is(Violations.class)) {
      try {
        debug = json(any.unpack(Violations.class));
      } catch (InvalidProtocolBufferException impossible) {
        throw new IllegalStateException(impossible);
      }
    }
    return new RestError.Detail(type, value, debug);
  }

  /**
   * The protobuf JSON form of a message without maps, Any or well-known types (Violations and
   * what it holds): lowerCamel names, fields at their default left out, enums by name, 64-bit
   * integers as strings, bytes as base64. protobuf-java-util's JsonFormat is not on this
   * service's classpath, and these few rules are all Violations needs.
   */
  static ObjectNode json(Message message) {
    ObjectNode out = NODES.objectNode();
    message.getAllFields().forEach((field, value) -> {
      if (field.isRepeated()) {
        ArrayNode items = out.putArray(field.getJsonName());
        for (Object item : (Iterable<?>) value) {
          items.add(scalar(field, item));
        }
      } else {
        out.set(field.getJsonName(), scalar(field, value));
      }
    });
    return out;
  }

  private static JsonNode scalar(FieldDescriptor field, Object value) {
    return switch (field.getJavaType()) {
      case MESSAGE -> json((Message) value);
      case ENUM -> NODES.stringNode(((EnumValueDescriptor) value).getName());
      case STRING -> NODES.stringNode((String) value);
      case BOOLEAN -> NODES.booleanNode((Boolean) value);
      case BYTE_STRING -> NODES.stringNode(Base64.getEncoder().encodeToString(((ByteString) value).toByteArray()));
      case INT -> field.getType() == FieldDescriptor.Type.UINT32 || field.getType() == FieldDescriptor.Type.FIXED32
          ? NODES.numberNode(Integer.toUnsignedLong((Integer) value))
          : NODES.numberNode((Integer) value);
      case LONG -> NODES.stringNode(field.getType() == FieldDescriptor.Type.UINT64 || field.getType() == FieldDescriptor.Type.FIXED64
          ? Long.toUnsignedString((Long) value)
          : String.valueOf(value));
      case FLOAT -> NODES.numberNode((Float) value);
      case DOUBLE -> NODES.numberNode((Double) value);
    };
  }
}
