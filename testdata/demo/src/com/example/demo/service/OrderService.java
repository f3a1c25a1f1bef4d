package com.example.demo.service;

import com.example.demo.util.Validator;
import java.util.Comparator;
import java.util.stream.Collectors;

/** Places orders and reports on them; the lambdas become synthetic methods. */
public class OrderService {
    private final OrderRepository repository;

    public OrderService(OrderRepository repository) {
        this.repository = repository;
    }

    public void place(Order order) {
        Validator.requirePositive(order.getQuantity(), "quantity of " + order.getItem());
        repository.save(order);
    }

    public String summary() {
        int total = repository.findAll().stream().mapToInt(Order::totalCents).sum();
        String items = repository.findAll().stream()
                .sorted(Comparator.comparing(o -> o.getItem().toLowerCase()))
                .map(o -> o.getQuantity() + "x " + o.getItem())
                .collect(Collectors.joining(", "));
        return items + " = " + formatCents(total);
    }

    static String formatCents(int cents) {
        return String.format("%d.%02d", cents / 100, cents % 100);
    }
}
