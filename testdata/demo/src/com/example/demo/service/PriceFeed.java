package com.example.demo.service;

/** Refreshes prices on a thread of its own, as an app's background work would. */
public class PriceFeed implements Runnable {
    private final String[] items;
    private volatile long checksum;

    public PriceFeed(String... items) {
        this.items = items;
    }

    @Override
    public void run() {
        for (int round = 0; round < 3; round++) {
            for (String item : items) {
                checksum += fetch(item, round);
            }
        }
    }

    private static long fetch(String item, int round) {
        long h = item.hashCode() * 31L + round;
        for (int i = 0; i < 20000; i++) {
            h = h * 6364136223846793005L + 1442695040888963407L;
        }
        return h & 0xFFFF;
    }

    public long checksum() {
        return checksum;
    }
}
