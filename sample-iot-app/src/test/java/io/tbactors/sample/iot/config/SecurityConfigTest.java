package io.tbactors.sample.iot.config;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.security.core.userdetails.UserDetails;

@ExtendWith(OutputCaptureExtension.class)
class SecurityConfigTest {

    @Test
    void withoutAConfiguredPasswordARandomOneIsGeneratedAndLoggedOnce(CapturedOutput output) {
        SampleProperties properties = new SampleProperties();

        UserDetails first = new SecurityConfig().managementUsers(properties).loadUserByUsername("admin");
        UserDetails second = new SecurityConfig().managementUsers(properties).loadUserByUsername("admin");

        String password = first.getPassword().substring("{noop}".length());
        assertThat(password).hasSizeGreaterThanOrEqualTo(20).isNotEqualTo("admin");
        assertThat(second.getPassword()).as("a new one per start").isNotEqualTo(first.getPassword());
        assertThat(output.getOut()).contains("Using generated management password: " + password, "sample.admin.password");
        assertThat(output.getOut().split(password, -1)).as("logged once").hasSize(2);
    }

    @Test
    void aConfiguredPasswordIsUsedAndNothingIsLogged(CapturedOutput output) {
        SampleProperties properties = new SampleProperties();
        properties.getAdmin().setPassword("s3cret-enough");

        UserDetails admin = new SecurityConfig().managementUsers(properties).loadUserByUsername("admin");

        assertThat(admin.getPassword()).isEqualTo("{noop}s3cret-enough");
        assertThat(output.getOut()).doesNotContain("generated management password");
    }
}
