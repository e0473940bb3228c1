package io.tbactors.rule.example;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

@SpringBootApplication
public class ReadingsApplication {

    protected ReadingsApplication() {
    }

    public static void main(String[] args) {
        SpringApplication.run(ReadingsApplication.class, args);
    }
}
