package com.acme.person.rest;

import com.acme.person.auth.TokenValidator;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.http.HttpHeaders;
import org.springframework.stereotype.Component;
import org.springframework.web.servlet.HandlerInterceptor;

/** The REST twin's authentication: the same Bearer token check as the gRPC interceptor. */
@Component
public class BearerAuthInterceptor implements HandlerInterceptor {

  private final TokenValidator tokens;

  public BearerAuthInterceptor(TokenValidator tokens) {
    this.tokens = tokens;
  }

  @Override
  public boolean preHandle(HttpServletRequest request, HttpServletResponse response, Object handler) {
    tokens.validateHeader(request.getHeader(HttpHeaders.AUTHORIZATION));
    return true;
  }
}
