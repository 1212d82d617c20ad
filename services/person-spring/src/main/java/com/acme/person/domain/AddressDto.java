package com.acme.person.domain;

/** The postal address a person lives at. */
public record AddressDto(String city, String zipCode) {}
