package com.example.demo.service;

import java.util.List;

/** Storage of orders; an interface, so nothing here is traced. */
public interface OrderRepository {
    void save(Order order);

    List<Order> findAll();
}
