package com.example.demo.service;

/** An order line; its getters are skipped by Matrix's getter/setter rule. */
public class Order {
    private final String item;
    private final int quantity;
    private final int priceCents;

    public Order(String item, int quantity, int priceCents) {
        this.item = item;
        this.quantity = quantity;
        this.priceCents = priceCents;
    }

    public String getItem() {
        return item;
    }

    public int getQuantity() {
        return quantity;
    }

    public int getPriceCents() {
        return priceCents;
    }

    public int totalCents() {
        return Math.multiplyExact(quantity, priceCents);
    }
}
