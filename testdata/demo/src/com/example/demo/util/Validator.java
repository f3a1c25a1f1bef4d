package com.example.demo.util;

/** Argument checks that throw; the exit call runs on the exceptional path too. */
public final class Validator {
    private Validator() {
    }

    public static void requirePositive(int value, String what) {
        if (value <= 0) {
            throw new IllegalArgumentException(what + " must be positive, was " + value);
        }
    }

    public static boolean isValidName(String name) {
        return name != null && !name.trim().isEmpty() && name.chars().allMatch(Character::isLetterOrDigit);
    }
}
