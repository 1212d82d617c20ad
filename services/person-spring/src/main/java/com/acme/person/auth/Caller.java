package com.acme.person.auth;

import com.acme.auth.v1.Role;
import java.time.Instant;
import java.util.List;

/** Whom a valid token names, and until when the token holds. */
public record Caller(String subject, List<Role> roles, Instant expiresAt) {}
