package com.acme.person.rest;

import com.acme.person.grpc.ContractsVersionInterceptor;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;

/** The REST twin says which contracts it was built with too: the acme-contracts-version header. */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE)
public class ContractsVersionFilter extends OncePerRequestFilter {
  private final String version = ContractsVersionInterceptor.sdkVersion();

  @Override
  protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
      throws ServletException, IOException {
    response.setHeader("acme-contracts-version", version);
    chain.doFilter(request, response);
  }
}
