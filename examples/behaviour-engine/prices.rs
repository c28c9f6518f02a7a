//! The engine's own small price list and capacity model (list prices, so every figure it
//! produces is `modeled`; only an invoice line makes one `validated`).

/// How a kind is sized, priced and loaded.
pub struct Model {
    pub kind: &'static str,
    /// The prop that counts units (`replicas`, `nodes`), or `size` for sized kinds.
    pub units: Units,
    /// Requests per second one unit carries before it saturates (`None`: no CPU model).
    pub capacity_per_unit: Option<f64>,
    /// Latency of one request on an idle unit, in milliseconds.
    pub base_latency_ms: f64,
    /// The latency objective headroom is measured against.
    pub latency_objective_ms: f64,
    pub price: Price,
}

pub enum Units {
    Count(&'static str),
    /// A size prop whose values multiply capacity and price.
    Size(&'static str, &'static [(&'static str, f64)]),
}

pub enum Price {
    PerUnitHour(f64),
    PerMillionRequests(f64),
}

pub const CURRENCY: &str = "USD";

pub const PRICE_LIST: &[Model] = &[
    Model {
        kind: "Demo::Service",
        units: Units::Count("replicas"),
        capacity_per_unit: Some(120.0),
        base_latency_ms: 20.0,
        latency_objective_ms: 250.0,
        price: Price::PerUnitHour(0.0416),
    },
    Model {
        kind: "Demo::Database",
        units: Units::Size("size", &[("small", 1.0), ("medium", 2.0), ("large", 4.0)]),
        capacity_per_unit: Some(400.0),
        base_latency_ms: 4.0,
        latency_objective_ms: 50.0,
        price: Price::PerUnitHour(0.068),
    },
    Model {
        kind: "Demo::Cache",
        units: Units::Count("nodes"),
        capacity_per_unit: Some(2000.0),
        base_latency_ms: 1.0,
        latency_objective_ms: 10.0,
        price: Price::PerUnitHour(0.034),
    },
    Model {
        kind: "Demo::Queue",
        units: Units::Count("partitions"),
        capacity_per_unit: None,
        base_latency_ms: 8.0,
        latency_objective_ms: 100.0,
        price: Price::PerMillionRequests(0.40),
    },
    Model {
        kind: "AWS::SQS::Queue",
        units: Units::Count("partitions"),
        capacity_per_unit: None,
        base_latency_ms: 10.0,
        latency_objective_ms: 100.0,
        price: Price::PerMillionRequests(0.40),
    },
];

pub fn model_for(kind: &str) -> Option<&'static Model> {
    PRICE_LIST.iter().find(|m| m.kind == kind)
}
