package com.acme.person.validation;

import build.buf.validate.FieldPath;
import build.buf.validate.FieldPathElement;

/** A violation's field path as text, e.g. "person.hobbies[2]", for status messages. */
public final class FieldPaths {
  private FieldPaths() {}

  public static String toText(FieldPath path) {
    StringBuilder text = new StringBuilder();
    for (FieldPathElement e : path.getElementsList()) {
      if (text.length() > 0) {
        text.append('.');
      }
      text.append(e.getFieldName());
      switch (e.getSubscriptCase()) {
        case INDEX -> text.append('[').append(e.getIndex()).append(']');
        case STRING_KEY -> text.append("[\"").append(e.getStringKey()).append("\"]");
        case INT_KEY -> text.append('[').append(e.getIntKey()).append(']');
        case UINT_KEY -> text.append('[').append(e.getUintKey()).append(']');
        case BOOL_KEY -> text.append('[').append(e.getBoolKey()).append(']');
        default -> {}
      }
    }
    return text.toString();
  }
}
