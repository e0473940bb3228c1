package io.tbactors.sample.iot.config;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Map;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import lombok.extern.slf4j.Slf4j;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.annotation.web.configurers.AbstractHttpConfigurer;
import org.springframework.security.config.http.SessionCreationPolicy;
import org.springframework.security.core.AuthenticationException;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.core.userdetails.UserDetailsService;
import org.springframework.security.crypto.password.DelegatingPasswordEncoder;
import org.springframework.security.crypto.password.PasswordEncoder;
import org.springframework.security.provisioning.InMemoryUserDetailsManager;
import org.springframework.security.web.AuthenticationEntryPoint;
import org.springframework.security.web.SecurityFilterChain;
import tools.jackson.databind.json.JsonMapper;

import io.tbactors.sample.iot.web.ProblemResponses;

/**
 * Two filter chains: the device API ({@code /api/v1/**}) authenticates by access token in the path, so Spring
 * Security lets it through untouched; everything else needs HTTP basic credentials
 * ({@code sample.admin.username}/{@code password}; a password generated and logged at start when none is set),
 * except {@code /actuator/health} and {@code /actuator/info}.
 * Stateless, no CSRF (no browser session), 401 as a JSON problem detail. The web console at {@code /} is behind
 * the same credentials (the browser asks for them) and may load only its own scripts, styles and data
 * ({@link #CONSOLE_CONTENT_SECURITY_POLICY}).
 */
@Slf4j
@Configuration(proxyBeanMethods = false)
public class SecurityConfig {

    /**
     * The console's scripts, styles, images and connections come from the application only, and no other site
     * may frame it; inline styles are allowed for the chart library's sizing.
     */
    static final String CONSOLE_CONTENT_SECURITY_POLICY = "default-src 'self'; script-src 'self'; "
            + "style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; object-src 'none'; "
            + "base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

    /**
     * The device API's chain is empty: it authenticates by the token in the path ({@code DeviceApiHandler}), keeps no
     * session and writes no browser headers, so none of Spring Security's filters has work to do there, and each
     * would cost every post (the request still passes the firewall, {@code StrictHttpFirewall}).
     *
     * @param http the builder
     * @return the device API's chain: no filters
     * @throws Exception when building fails
     */
    @Bean
    @Order(1)
    public SecurityFilterChain deviceApiSecurity(HttpSecurity http) throws Exception {
        return http.securityMatcher("/api/v1/**")
                .csrf(AbstractHttpConfigurer::disable)
                .sessionManagement(AbstractHttpConfigurer::disable)
                .requestCache(AbstractHttpConfigurer::disable)
                .securityContext(AbstractHttpConfigurer::disable)
                .anonymous(AbstractHttpConfigurer::disable)
                .logout(AbstractHttpConfigurer::disable)
                .headers(AbstractHttpConfigurer::disable)
                .exceptionHandling(AbstractHttpConfigurer::disable)
                .servletApi(AbstractHttpConfigurer::disable)
                .build();
    }

    /**
     * @param http the builder
     * @param entryPoint answers 401
     * @return the management chain: basic authentication
     * @throws Exception when building fails
     */
    @Bean
    @Order(2)
    public SecurityFilterChain managementSecurity(HttpSecurity http, AuthenticationEntryPoint entryPoint) throws Exception {
        return http.authorizeHttpRequests(auth -> auth
                        .requestMatchers("/actuator/health", "/actuator/health/**", "/actuator/info", "/error").permitAll()
                        .anyRequest().authenticated())
                .httpBasic(basic -> basic.authenticationEntryPoint(entryPoint))
                .headers(headers -> headers.contentSecurityPolicy(csp -> csp.policyDirectives(CONSOLE_CONTENT_SECURITY_POLICY)))
                .exceptionHandling(handling -> handling.authenticationEntryPoint(entryPoint))
                .csrf(AbstractHttpConfigurer::disable)
                .sessionManagement(session -> session.sessionCreationPolicy(SessionCreationPolicy.STATELESS))
                .requestCache(AbstractHttpConfigurer::disable)
                .build();
    }

    /**
     * @param jsonMapper writes the body
     * @return an entry point that answers 401 with a problem detail and a basic-auth challenge
     */
    @Bean
    public AuthenticationEntryPoint jsonAuthenticationEntryPoint(JsonMapper jsonMapper) {
        return (HttpServletRequest request, HttpServletResponse response, AuthenticationException e) -> writeUnauthorized(
                jsonMapper, request, response);
    }

    private static void writeUnauthorized(JsonMapper jsonMapper, HttpServletRequest request, HttpServletResponse response)
            throws IOException {
        response.setStatus(HttpStatus.UNAUTHORIZED.value());
        response.setHeader("WWW-Authenticate", "Basic realm=\"tb-actors-sample\"");
        response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
        jsonMapper.writeValue(response.getOutputStream(), ProblemResponses.problem(HttpStatus.UNAUTHORIZED,
                "Missing or wrong credentials: use HTTP basic authentication with sample.admin.username and password",
                request.getRequestURI()));
    }

    /**
     * @param properties the credentials
     * @return the one management user
     */
    @Bean
    public UserDetailsService managementUsers(SampleProperties properties) {
        String password = properties.getAdmin().getPassword();
        if (password == null || password.isBlank()) {
            password = generatedPassword();
            log.warn("\n\nUsing generated management password: {}\nfor user '{}' (set sample.admin.password to choose one)\n",
                    password, properties.getAdmin().getUsername());
        }
        // {noop}: a credential from configuration or generated here; hashing it on every request would only cost time
        return new InMemoryUserDetailsManager(User.withUsername(properties.getAdmin().getUsername())
                .password("{noop}" + password)
                .roles("ADMIN")
                .build());
    }

    /**
     * The management credential is held in plain form ({@code {noop}}), so checking it must not cost a hash. Without
     * this encoder Spring Security upgrades the stored password to bcrypt at the first sign-in, and every later
     * basic-auth request pays a bcrypt check (about 0.1 s of CPU: a third of the app's CPU in the device API benchmark,
     * which samples the heap over the metrics endpoint). Comparison is in constant time; nothing is upgraded.
     *
     * @return the encoder of the management credentials
     */
    @Bean
    public PasswordEncoder managementPasswordEncoder() {
        PasswordEncoder plain = new PasswordEncoder() {
            @Override
            public String encode(CharSequence rawPassword) {
                return rawPassword.toString();
            }

            @Override
            public boolean matches(CharSequence rawPassword, String encodedPassword) {
                return encodedPassword != null && MessageDigest.isEqual(
                        rawPassword.toString().getBytes(StandardCharsets.UTF_8), encodedPassword.getBytes(StandardCharsets.UTF_8));
            }
        };
        return new DelegatingPasswordEncoder("noop", Map.of("noop", plain));
    }

    private static String generatedPassword() {
        byte[] random = new byte[18];
        new SecureRandom().nextBytes(random);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(random);
    }
}
