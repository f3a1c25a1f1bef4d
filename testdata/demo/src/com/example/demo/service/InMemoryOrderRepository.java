package com.example.demo.service;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** Keeps the orders in a list. */
public class InMemoryOrderRepository implements OrderRepository {
    private final List<Order> orders = new ArrayList<>();
    private int capacity = 16;

    @Override
    public void save(Order order) {
        if (orders.size() >= capacity) {
            throw new IllegalStateException("repository full");
        }
        orders.add(order);
    }

    @Override
    public List<Order> findAll() {
        return Collections.unmodifiableList(orders);
    }

    public int getCapacity() {
        return capacity;
    }

    public void setCapacity(int capacity) {
        this.capacity = capacity;
    }
}
